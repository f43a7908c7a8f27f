/**
 * What Codex (0.171.0) records about the hooks a person reviewed: in its `config.toml`, one table per
 * hook entry, `[hooks.state."<hooks file>:<event>:<group>:<handler>"]`, holding `trusted_hash =
 * "sha256:<hex>"` (the entry as it was trusted) and, for an entry switched off in /hooks, `enabled =
 * false`. Only that shape is read, the way Codex writes it (section headers, one key per line); a
 * config.toml written by hand in another TOML form reads as "nothing trusted".
 */
export interface CodexHookState {
  trustedHash?: string;
  enabled?: boolean;
}

const HEADER = /^\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(#.*)?$/;
const TABLE = /^\[/;
const TRUSTED_HASH = /^trusted_hash\s*=\s*"([^"\\]*)"\s*(#.*)?$/;
const ENABLED = /^enabled\s*=\s*(true|false)\s*(#.*)?$/;

/** The hook states of a config.toml's text, by key. */
export function readCodexHookStates(toml: string): Map<string, CodexHookState> {
  const states = new Map<string, CodexHookState>();
  let current: CodexHookState | undefined;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.trim();
    const header = HEADER.exec(line);
    if (header) {
      const key = unquote(header[1]!);
      current = states.get(key) ?? {};
      states.set(key, current);
      continue;
    }
    if (TABLE.test(line)) {
      current = undefined;
      continue;
    }
    if (current === undefined) continue;
    const hash = TRUSTED_HASH.exec(line);
    if (hash) current.trustedHash = hash[1]!;
    const enabled = ENABLED.exec(line);
    if (enabled) current.enabled = enabled[1] === 'true';
  }
  return states;
}

/** A TOML basic ("…", with escapes) or literal ('…') string's value. */
function unquote(quoted: string): string {
  if (quoted.startsWith("'")) return quoted.slice(1, -1);
  return quoted
    .slice(1, -1)
    .replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\(.)/g, (_, u4?: string, u8?: string, c?: string) => {
      if (u4 ?? u8) return String.fromCodePoint(parseInt((u4 ?? u8)!, 16));
      return (
        ({ b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\u001b' } as Record<string, string>)[c!] ?? c!
      );
    });
}
