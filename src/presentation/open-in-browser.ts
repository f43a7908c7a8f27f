import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** One way to open a URL: a program and its arguments, the URL among them. */
export interface BrowserCommand {
  command: string;
  args: string[];
}

/**
 * A program still running this long after its start is taken to be the browser itself (a `$BROWSER`
 * of `firefox` runs until the window closes); one that ended with an error by then did not open it.
 */
const SETTLE_MS = 1500;

/**
 * The ways to open `url`, in the order tried: each entry of `$BROWSER` (separated like PATH; `%s`
 * stands for the URL, else the URL is the last argument), then `open` on macOS or `xdg-open` elsewhere.
 */
export function browserCommands(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): BrowserCommand[] {
  const commands: BrowserCommand[] = [];
  for (const entry of (env['BROWSER'] ?? '').split(delimiter)) {
    const words = entry.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const placed = words.some((word) => word.includes('%s'));
    const args = words.slice(1).map((word) => word.replaceAll('%s', url));
    const command = words[0]!.replaceAll('%s', url);
    commands.push({ command, args: placed ? args : [...args, url] });
  }
  if (platform !== 'win32')
    commands.push({ command: platform === 'darwin' ? 'open' : 'xdg-open', args: [url] });
  return commands;
}

/** Whether any of those programs exists, so offering "Open Notify" can lead somewhere. */
export function canOpenBrowser(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  return browserCommands('', env, platform).some(({ command }) => onPath(command, env));
}

/**
 * Opens `url` with the first program that starts and does not fail; resolves to that program, or
 * undefined when none could (the caller then shows the URL). Nothing it starts is waited for beyond
 * SETTLE_MS, nor kept from exiting with the caller.
 */
export async function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  for (const candidate of browserCommands(url, env, platform)) {
    if (await started(candidate, env)) return candidate.command;
  }
  return undefined;
}

function started({ command, args }: BrowserCommand, env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, { env, stdio: 'ignore', detached: true });
    } catch {
      return resolve(false);
    }
    const settle = setTimeout(() => {
      child.unref();
      resolve(true);
    }, SETTLE_MS);
    child.once('error', () => {
      clearTimeout(settle);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(settle);
      resolve(code === 0);
    });
  });
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  const places = command.includes('/')
    ? [isAbsolute(command) ? command : join(process.cwd(), command)]
    : (env['PATH'] ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, command));
  return places.some((place) => {
    try {
      accessSync(place, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
