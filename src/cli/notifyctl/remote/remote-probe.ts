import type { HookTool } from '../../../domain/hooks/decision.js';

/** The oldest Node.js the client and hook bundles run on (they are built for node22). */
export const REMOTE_NODE_MAJOR = 22;

/** What `remote add` learns of the remote before it changes anything there. */
export interface RemoteFacts {
  home: string;
  configHome: string;
  /** The first Node.js found that is new enough; undefined when none is. */
  node?: string;
  /** Every Node.js found, with its version, for the message when none will do. */
  nodesFound: { path: string; version: string }[];
  /** The agent tools whose settings folder or program is there. */
  agents: HookTool[];
}

/**
 * Prints the remote's home, config folder, every Node.js it has (on PATH, then the places a person
 * without root puts one) and which agent tools it has. POSIX sh, no bashisms.
 */
export const PROBE_SCRIPT = `
echo "home=$HOME"
echo "config=\${XDG_CONFIG_HOME:-$HOME/.config}"
for n in "$(command -v node 2>/dev/null)" "$HOME/.local/node/bin/node" "$HOME/.local/node24/node_modules/node/bin/node" "$HOME/.volta/bin/node" "$HOME"/.nvm/versions/node/*/bin/node; do
  if [ -n "$n" ] && [ -x "$n" ]; then echo "node=$("$n" --version 2>/dev/null) $n"; fi
done
if [ -d "$HOME/.claude" ] || command -v claude >/dev/null 2>&1; then echo agent=claude; fi
if [ -d "\${CODEX_HOME:-$HOME/.codex}" ] || command -v codex >/dev/null 2>&1; then echo agent=codex; fi
if [ -d "$HOME/.gemini" ] || command -v gemini >/dev/null 2>&1; then echo agent=gemini; fi
`;

export function parseProbe(output: string): RemoteFacts {
  const lines = output.split('\n');
  const value = (key: string) => lines.find((line) => line.startsWith(`${key}=`))?.slice(key.length + 1);
  const nodesFound = lines
    .filter((line) => line.startsWith('node='))
    .map((line) => {
      const [version = '', ...path] = line.slice(5).split(' ');
      return { version, path: path.join(' ') };
    });
  const node = nodesFound.find((found) => majorOf(found.version) >= REMOTE_NODE_MAJOR)?.path;
  const agents = lines.filter((line) => line.startsWith('agent=')).map((line) => line.slice(6) as HookTool);
  const home = value('home') ?? '';
  return {
    home,
    configHome: value('config') ?? `${home}/.config`,
    ...(node !== undefined && { node }),
    nodesFound,
    agents,
  };
}

function majorOf(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
}

/** Why `remote add` stopped, and how the person gets a Node.js there without root. */
export function missingNodeMessage(name: string, facts: RemoteFacts): string {
  const found =
    facts.nodesFound.length === 0
      ? 'no Node.js was found there'
      : `only ${facts.nodesFound.map((n) => `${n.version} (${n.path})`).join(', ')} was found there`;
  return [
    `${name} needs Node.js ${REMOTE_NODE_MAJOR} or later for Notify's client and hooks, and ${found}. Nothing was changed.`,
    'Get one without root: download the Linux binary (node-v24.x.y-linux-x64.tar.xz, or -arm64) from',
    'https://nodejs.org/en/download, unpack it and move the folder to ~/.local/node on that machine, so',
    'that ~/.local/node/bin/node exists; or use a version manager (fnm, nvm, volta) there. Then run',
    'notifyctl remote add again.',
  ].join('\n');
}
