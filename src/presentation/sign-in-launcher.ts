import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launcherDir } from '../config/paths.js';
import { openInBrowser } from './open-in-browser.js';

/**
 * A launcher left behind (its code never used, or made by a program whose broker looks in another
 * folder) is removed by the next one written once it is this old: its code ended long before.
 */
export const LAUNCHER_MAX_AGE_MS = 2 * 60_000;

const LAUNCHER_NAME = /^open-[0-9a-f]{32}\.html$/;
const PRIVATE = 0o700;

/** No launcher could be written safely (the folder is not private, or the file not made): no browser was started. */
export class LauncherError extends Error {}

/** The SHA-256 of a login code, as hex: what names its launcher, and how the broker keeps the code. */
export function codeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** The launcher of the code with this hash; it names only the hash, never the code. */
export function launcherPath(folder: string, hashOfCode: string): string {
  return join(folder, `open-${hashOfCode.slice(0, 32)}.html`);
}

/** Removes the launcher of a code that was used or ended; a missing one is fine. */
export function removeLauncher(folder: string, hashOfCode: string): void {
  try {
    unlinkSync(launcherPath(folder, hashOfCode));
  } catch {
    // Already gone, or never written here (the link was printed, or opened from another folder).
  }
}

/**
 * Writes a page that forwards the browser to the one-time sign-in `link`, readable by this user only
 * (0600, created anew, in a 0700 folder of theirs): a browser is then started with the file's URL, so
 * the code never appears on a command line, where any local user can read it (/proc/<pid>/cmdline).
 */
export function writeLauncher(link: string, folder: string, now: number = Date.now()): string {
  const code = new URL(link).searchParams.get('code') ?? '';
  privateFolder(folder);
  sweep(folder, now);
  const path = launcherPath(folder, codeHash(code));
  try {
    // A new file only, never one that is there already nor through a symbolic link.
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, launcherPage(link));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new LauncherError(`the file ${path} could not be written: ${(error as Error).message}`);
  }
  return path;
}

/**
 * Opens the sign-in `link` through a launcher file with the first browser program that starts
 * (openInBrowser); resolves to that program, or undefined when none could (the launcher is then
 * removed and the caller shows the link). Throws LauncherError when the folder is not private.
 */
export async function openSignInLink(
  link: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const folder = launcherDir(env, platform);
  const path = writeLauncher(link, folder);
  const opener = await openInBrowser(pathToFileURL(path).href, env, platform);
  // Nobody will open it: the caller prints the link instead.
  if (opener === undefined) rmSync(path, { force: true });
  return opener;
}

/** Makes `folder` (and its parents) and checks it is a real folder of this user's, mode 0700. */
function privateFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE });
  } catch (error) {
    throw new LauncherError(`the folder ${folder} could not be made: ${(error as Error).message}`);
  }
  let found;
  try {
    found = lstatSync(folder);
  } catch (error) {
    throw new LauncherError(`the folder ${folder} could not be checked: ${(error as Error).message}`);
  }
  if (!found.isDirectory()) {
    throw new LauncherError(`${folder} is not a folder (a symbolic link or a file), so it was not used`);
  }
  if (process.platform === 'win32') return;
  const uid = process.getuid!();
  if (found.uid !== uid) {
    throw new LauncherError(
      `the folder ${folder} belongs to another user (uid ${found.uid}), not to you (uid ${uid}), so it was not used`,
    );
  }
  // Made by an older umask or by hand: nobody else may list or enter it.
  if ((found.mode & 0o777) !== PRIVATE) chmodSync(folder, PRIVATE);
}

function sweep(folder: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!LAUNCHER_NAME.test(name)) continue;
    const path = join(folder, name);
    try {
      if (lstatSync(path).mtimeMs < now - LAUNCHER_MAX_AGE_MS) unlinkSync(path);
    } catch {
      // Removed meanwhile by the broker or another launcher.
    }
  }
}

/** Forwards at once; the visible link is for a browser that does not follow the refresh itself. */
function launcherPage(link: string): string {
  const href = escapeHtml(link);
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Opening Notify</title>
</head>
<body>
<p>Opening the Notify web page. If nothing happens, <a href="${href}">open it here</a>: the link works
once, within a minute.</p>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
