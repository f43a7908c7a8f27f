import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HOOK_TOOLS, type HookTool } from '../../../domain/hooks/decision.js';
import { hookCommandLine } from '../hooks/hook-command-line.js';
import { withOurHooks, withoutOurHooks } from '../hooks/hook-entries.js';
import { parseSettings, serializeSettings } from '../hooks/settings-file.js';
import { HOOK_TARGETS } from '../hooks/targets.js';
import { runSsh, shellQuote, writeRemoteFile, type SshTarget } from './ssh-run.js';

/** The bundles of this checkout that go to a remote: the client, its relay part, the hook adapter. */
const BUNDLES = ['notify.cjs', 'notify-relay-client.cjs', 'notify-hook.cjs'] as const;
const bundleFile = (name: string) => fileURLToPath(new URL(`../../../../${name}`, import.meta.url));

/** Where Notify's pieces live on a remote, all under its user's home. */
export interface RemoteLayout {
  lib: string;
  wrapper: string;
  config: string;
  /** Where sshd makes the socket that forwards to the desk. */
  socket: string;
}

export function remoteLayout(home: string, configHome: string): RemoteLayout {
  return {
    lib: `${home}/.local/lib/notify`,
    wrapper: `${home}/.local/bin/notify`,
    config: `${configHome}/notify/config.json`,
    socket: `${home}/.local/state/notify/desk.sock`,
  };
}

/** A step that failed on the remote, with what ssh or the remote said. */
export class RemoteStepError extends Error {
  override name = 'RemoteStepError';
}

async function must(step: string, result: Promise<{ code: number | null; stderr: string }>): Promise<void> {
  const { code, stderr } = await result;
  if (code !== 0)
    throw new RemoteStepError(`${step} failed (exit ${code}): ${stderr.trim() || 'no message'}`);
}

/** Copies the bundles, a `notify` command and the config (token, forwarded socket), mode 0600. */
export async function installClient(
  target: SshTarget,
  layout: RemoteLayout,
  node: string,
  config: { authToken: string; forwardName: string },
): Promise<void> {
  for (const name of BUNDLES)
    await must(
      `copying ${name}`,
      writeRemoteFile(target, `${layout.lib}/${name}`, readFileSync(bundleFile(name)), '644'),
    );
  const wrapper = `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(`${layout.lib}/notify.cjs`)} "$@"\n`;
  await must('writing the notify command', writeRemoteFile(target, layout.wrapper, wrapper, '755'));
  const text = `${JSON.stringify({ authToken: config.authToken, socket: layout.socket, forwardName: config.forwardName }, null, 2)}\n`;
  await must('writing config.json', writeRemoteFile(target, layout.config, text, '600'));
  const folder = shellQuote(layout.socket.slice(0, layout.socket.lastIndexOf('/')));
  await must('making the socket folder', runSsh(target, `mkdir -p ${folder} && chmod 700 ${folder}`));
}

/** The text of a remote file; undefined when there is none. */
async function readRemoteFile(target: SshTarget, path: string): Promise<string | undefined> {
  const file = shellQuote(path);
  const result = await runSsh(target, `if [ -f ${file} ]; then printf present; cat ${file}; fi`);
  if (result.code !== 0) throw new RemoteStepError(`reading ${path} failed: ${result.stderr.trim()}`);
  return result.stdout.startsWith('present') ? result.stdout.slice('present'.length) : undefined;
}

/** The settings file of a tool on the remote (user scope). */
function settingsFile(tool: HookTool, home: string): string {
  return HOOK_TARGETS[tool].file('user', { HOME: home }, home);
}

/**
 * Adds Notify's hooks to each tool's settings on the remote, as `notifyctl hooks install` does here:
 * merged into what is there, the answer wait on PermissionRequest, the file's own layout kept. The
 * file is written in place, so its mode and owner stay.
 */
export async function installHooks(
  target: SshTarget,
  home: string,
  tools: readonly HookTool[],
  node: string,
  layout: RemoteLayout,
): Promise<string[]> {
  const installed: string[] = [];
  for (const tool of tools) {
    const file = settingsFile(tool, home);
    const current = parseSettings(await readRemoteFile(target, file));
    const hookTarget = HOOK_TARGETS[tool];
    const command = hookCommandLine(tool, node, `${layout.lib}/notify-hook.cjs`);
    const answers = hookTarget.answers ? { timeoutSeconds: hookTarget.defaultPermissionTimeout } : undefined;
    const next = withOurHooks(current.settings, tool, hookTarget.events, hookTarget.entry(command, answers));
    await must(
      `installing the ${hookTarget.label} hooks`,
      writeInPlace(target, file, serializeSettings(next, current)),
    );
    installed.push(`${hookTarget.label} (${file})`);
  }
  return installed;
}

function writeInPlace(target: SshTarget, path: string, text: string) {
  const file = shellQuote(path);
  return runSsh(target, `umask 077 && mkdir -p "$(dirname ${file})" && cat > ${file}`, text);
}

/** Takes Notify's hooks, command, bundles and config (when it is ours) off the remote. */
export async function uninstallRemote(target: SshTarget, forwardName: string): Promise<void> {
  const probe = await runSsh(target, 'echo "$HOME"; echo "${XDG_CONFIG_HOME:-$HOME/.config}"');
  if (probe.code !== 0) throw new RemoteStepError(`ssh failed: ${probe.stderr.trim()}`);
  const [home = '', configHome = ''] = probe.stdout.split('\n');
  const layout = remoteLayout(home, configHome);
  for (const tool of HOOK_TOOLS) {
    const file = settingsFile(tool, home);
    const text = await readRemoteFile(target, file);
    if (text === undefined || !text.includes('notify-hook.cjs')) continue;
    const current = parseSettings(text);
    const next = withoutOurHooks(current.settings, tool);
    await must(
      `removing the ${HOOK_TARGETS[tool].label} hooks`,
      writeInPlace(target, file, serializeSettings(next, current)),
    );
  }
  const config = await readRemoteFile(target, layout.config);
  const ours = config !== undefined && safeJson(config)?.['forwardName'] === forwardName;
  const files = [layout.wrapper, layout.lib, ...(ours ? [layout.config] : [])].map(shellQuote).join(' ');
  await must('removing the files', runSsh(target, `rm -rf ${files}`));
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
