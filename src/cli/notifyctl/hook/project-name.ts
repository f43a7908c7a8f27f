import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/**
 * The repository's name for a working folder: the folder name of the nearest ancestor holding a
 * `.git` (a folder, or the file a worktree or submodule has), found without spawning git. Outside a
 * repository, the working folder's own name. Undefined for a relative or root path.
 */
export function projectName(cwd: string | undefined): string | undefined {
  if (cwd === undefined || !isAbsolute(cwd)) return undefined;
  const start = resolve(cwd);
  for (let folder = start; ; folder = dirname(folder)) {
    if (hasGit(folder)) return basename(folder) || undefined;
    if (dirname(folder) === folder) break;
  }
  return basename(start) || undefined;
}

function hasGit(folder: string): boolean {
  try {
    statSync(`${folder}/.git`);
    return true;
  } catch {
    return false;
  }
}
