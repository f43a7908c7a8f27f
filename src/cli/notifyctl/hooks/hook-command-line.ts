import { fileURLToPath } from 'node:url';
import type { HookTool } from '../../../domain/hooks/decision.js';

/** The bundled hook adapter of this checkout (scripts/bundle-client.mjs), beside dist/notify.cjs. */
export const HOOK_BUNDLE = fileURLToPath(new URL('../../../../notify-hook.cjs', import.meta.url));

/**
 * How the adapter is invoked: absolute paths to this node and this checkout's bundle, so it works
 * whatever PATH the agent runs hooks with. Tools run commands through a shell, so a path with
 * anything but plain characters is single-quoted. A `port` (NOTIFY_PORT at install) is written in
 * through `env`, which works after `setsid` too; Windows gets none (its shell has no `env`).
 */
export function hookCommandLine(
  tool: HookTool,
  node: string = process.execPath,
  bundle: string = HOOK_BUNDLE,
  port?: number,
  platform: NodeJS.Platform = process.platform,
): string {
  const invocation = `${shellQuote(node)} ${shellQuote(bundle)} ${tool}`;
  return port === undefined || platform === 'win32' ? invocation : `env NOTIFY_PORT=${port} ${invocation}`;
}

const PORT_PREFIX = /(?:^|do \$s )env NOTIFY_PORT=([0-9]{1,5}) /;

/** The port a hook command line was installed for, or undefined when it reaches config.json's. */
export function commandPort(command: string): number | undefined {
  const match = PORT_PREFIX.exec(command);
  return match ? Number(match[1]) : undefined;
}

/** The command line without the port written into it: what reads its paths sees the same words. */
function withoutPort(command: string): string {
  return command.replace(/(^|do \$s )env NOTIFY_PORT=[0-9]{1,5} /, '$1');
}

/** How many times a start killed by the tool's stop signal is tried again. */
const STARTS = 3;
/** Where the invocation starts inside `survivingCommandLine`'s loop. */
const INVOCATION_IN_LOOP = 'do $s ';

/**
 * The command written for every event the tool may stop early (all but a waiting PermissionRequest).
 * `claude -p` sends SIGTERM to the hook's process group as early as 37 ms after the spawn, while Node
 * needs 50-70 ms to reach the adapter's first line, and SIGKILL about 1.4 s after the SIGTERM (seen
 * live). Node resets an ignored signal to its default at start-up, so ignoring it before `exec` is not
 * enough. So the shell ignores the stop signals itself, and runs the adapter in a session of its own
 * where `setsid -w` exists (util-linux: Linux), out of reach of both signals, the shell still waiting
 * for it. Where it does not (macOS), it starts the adapter again when a signal killed it (status above
 * 128): the tools signal once, and the adapter had read nothing of stdin yet (its handlers come before
 * its first read), so the next start reads the whole payload. An adapter that ran exits 0 and ends the
 * loop. Standard error goes nowhere: the shell reports a killed start there ("Terminated"), the
 * adapter never writes to it, and a tool may show a hook's stderr to the person. POSIX sh (dash, bash,
 * zsh as sh); Windows gets the bare invocation.
 */
export function survivingCommandLine(
  invocation: string,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return invocation;
  const starts = Array.from({ length: STARTS }, (_, index) => index + 1).join(' ');
  return (
    `trap '' TERM INT HUP; s=; setsid -w true 2>/dev/null && s='setsid -w'; ` +
    `for start in ${starts}; ${INVOCATION_IN_LOOP}${invocation}; [ $? -gt 128 ] || exit 0; done 2>/dev/null`
  );
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The node and bundle paths of a hook command line written by any version (the inverse of
 * `hookCommandLine`'s quoting): the first two shell words of the invocation, bare or inside the loop
 * that survives an early stop signal.
 */
export function commandPaths(command: string): string[] {
  const loop = command.indexOf(INVOCATION_IN_LOOP);
  if (loop !== -1) command = command.slice(loop + INVOCATION_IN_LOOP.length);
  command = withoutPort(command);
  const words: string[] = [];
  const word = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of command.matchAll(word)) {
    words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
    if (words.length === 2) break;
  }
  return words;
}
