import { lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { CliError } from '../failure.js';

/**
 * Checks of the folders above the skill folder, made before anything is read or written: a clear
 * sentence instead of a raw ENOENT or ENOTDIR, and no recursive mkdir, which never returns under /proc.
 */

/**
 * The nearest folder above `dir` that exists (links followed). Throws when the way there is blocked:
 * a dangling link, a link loop, or a file where a folder has to be.
 */
export function nearestExistingFolder(dir: string): string {
  let loop: string | undefined;
  for (let path = dirname(dir); ; path = dirname(path)) {
    const state = pathState(path);
    // Everything beneath a looping link loops too: the highest path that loops is the link itself.
    if (state === 'link-loop') {
      loop = path;
      continue;
    }
    if (loop !== undefined) {
      throw new CliError(
        `${loop} is a symbolic link to ${readlinkSync(loop)}, and following it goes round a loop of links, so no folder is there. Remove the link (rm ${JSON.stringify(loop)}) or point it at a real folder, then try again. Nothing written.`,
      );
    }
    if (state === 'folder') return path;
    if (state === 'dangling-link') {
      const target = readlinkSync(path);
      throw new CliError(
        `${path} is a symbolic link to ${target}, which does not exist. Create that folder (mkdir -p ${JSON.stringify(target)}) or remove the link, then try again. Nothing written.`,
      );
    }
    if (state === 'not-folder') {
      throw new CliError(
        `${path} is a file, not a folder, so the skill cannot go beneath it. Choose another folder (--path) or move the file away. Nothing written.`,
      );
    }
    if (dirname(path) === path) return path;
  }
}

/**
 * Project scope: the skill stays inside the project. A `.claude` or `.agents` that is a link leading
 * elsewhere would carry the write out of it, so it is refused; a link that stays inside is fine.
 */
export function checkInsideProject(dir: string, project: string): void {
  const projectReal = realpathSync(project);
  const existing = nearestExistingFolder(dir);
  if (isInside(realpathSync(existing), projectReal)) return;
  const parts = relative(project, existing).split(sep);
  for (let depth = 1; depth <= parts.length; depth++) {
    const path = join(project, ...parts.slice(0, depth));
    if (lstatSync(path).isSymbolicLink() && !isInside(realpathSync(path), projectReal)) {
      throw new CliError(
        `${path} is a symbolic link to ${realpathSync(path)}, outside the project ${project}. With --scope project the skill stays inside the project: replace the link with a folder, or use --scope user or --path <dir>. Nothing written.`,
      );
    }
  }
  throw new CliError(`${existing} is outside the project ${project}. Nothing written.`);
}

/** Creates `dir` and the missing folders above it, one level at a time, each failure in a sentence. */
export function createFolders(dir: string): void {
  const missing: string[] = [];
  const top = nearestExistingFolder(dir);
  for (let path = dir; path !== top; path = dirname(path)) missing.unshift(path);
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && pathState(path) === 'folder') continue;
      throw new CliError(
        `Cannot create the folder ${path}: ${mkdirProblem(code, dirname(path))} Nothing written.`,
      );
    }
  }
}

function mkdirProblem(code: string | undefined, parent: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `you may not write in ${parent}. Choose a folder of yours with --path.`;
    case 'EROFS':
      return `${parent} is on a read-only file system. Choose another folder with --path.`;
    case 'ENOENT':
      return `the system does not allow new folders in ${parent} (ENOENT). Choose another folder with --path.`;
    default:
      return `the system refused (${code ?? 'unknown error'}). Choose another folder with --path.`;
  }
}

type PathState = 'folder' | 'not-folder' | 'missing' | 'dangling-link' | 'link-loop';

function pathState(path: string): PathState {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'not-folder';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return 'missing';
    if (code === 'ELOOP') return 'link-loop';
    if (code !== 'ENOENT') throw error;
  }
  try {
    return lstatSync(path).isSymbolicLink() ? 'dangling-link' : 'missing';
  } catch {
    return 'missing';
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
