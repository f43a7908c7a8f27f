import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NotifyPaths } from './paths.js';

const OTHERS_WRITE = 0o022;
const OTHERS_READ = 0o044;
const OTHERS_ENTER = 0o011;

/**
 * What another local user could do to Notify's files, one sentence each with the command that fixes
 * it: replace config.json (and the token with it) or the database through a folder they can write,
 * or read every notification from a database file they can reach. POSIX modes only; on Windows the
 * per-user profile folders are private by default and nothing is checked.
 */
export function permissionWarnings(paths: NotifyPaths, platform = process.platform): string[] {
  if (platform === 'win32') return [];
  const warnings: string[] = [];
  const folders: [string, string][] = [
    ['config folder', paths.configDir],
    ['data folder', paths.dataDir],
  ];
  const seen = new Set<string>();
  for (const [name, folder] of folders) {
    const mode = modeOf(folder);
    if (seen.has(folder) || mode === undefined || (mode & OTHERS_WRITE) === 0) continue;
    seen.add(folder);
    warnings.push(
      `the ${name} ${folder} is writable by other users (mode ${octal(mode)}); run: chmod go-w '${folder}'`,
    );
  }
  const database = modeOf(paths.databaseFile);
  const folder = modeOf(dirname(paths.databaseFile));
  // A readable file inside a folder others cannot enter is out of their reach.
  if (database !== undefined && database & OTHERS_READ && folder !== undefined && folder & OTHERS_ENTER) {
    warnings.push(
      `the database ${paths.databaseFile} is readable by other users (mode ${octal(database)}); run: chmod 600 '${paths.databaseFile}'`,
    );
  }
  return warnings;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

const octal = (mode: number) => mode.toString(8).padStart(4, '0');
