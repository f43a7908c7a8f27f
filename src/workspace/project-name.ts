import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/**
 * The repository's name for a working folder: the folder name of its project root (projectRoot).
 * Undefined for a relative or root path.
 */
export function projectName(cwd: string | undefined): string | undefined {
  const root = projectRoot(cwd);
  return root === undefined ? undefined : basename(root) || undefined;
}

/**
 * The folder a working folder's project lives in: the nearest ancestor holding a `.git` (a folder,
 * or the file a worktree or submodule has), found without spawning git. Outside a repository, the
 * working folder itself. Undefined for a relative path.
 */
export function projectRoot(cwd: string | undefined): string | undefined {
  if (cwd === undefined || !isAbsolute(cwd)) return undefined;
  const start = resolve(cwd);
  for (let folder = start; ; folder = dirname(folder)) {
    if (hasGit(folder)) return folder;
    if (dirname(folder) === folder) break;
  }
  return start;
}

function hasGit(folder: string): boolean {
  try {
    statSync(`${folder}/.git`);
    return true;
  } catch {
    return false;
  }
}
