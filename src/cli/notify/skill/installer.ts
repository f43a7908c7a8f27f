import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError } from '../failure.js';
import type { SkillFile } from './targets.js';

/** What installing would do to one file: write it new, leave it, or meet a copy that differs. */
export type FileState = 'missing' | 'up-to-date' | 'changed';

export interface PlannedFile {
  file: SkillFile;
  target: string;
  state: FileState;
}

/** Reads what is on disk now; writes nothing. */
export function planInstall(skillDir: string, files: SkillFile[]): PlannedFile[] {
  return files.map((file) => {
    const target = join(skillDir, ...file.path.split('/'));
    return { file, target, state: stateOf(target, file.content) };
  });
}

function stateOf(target: string, content: string): FileState {
  let existing: string;
  try {
    if (statSync(target).isDirectory()) {
      throw new CliError(`${target} is a folder, where the skill needs a file. Move it away and try again.`);
    }
    existing = readFileSync(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  return existing === content ? 'up-to-date' : 'changed';
}

/**
 * Writes missing files, and changed ones too when `force`. Each write goes to a temp file beside the
 * target and is renamed over it, so an agent never reads half a skill and a symlink in the skill
 * folder is replaced rather than followed to a file elsewhere.
 */
export function applyInstall(plan: PlannedFile[], force: boolean): void {
  for (const { file, target, state } of plan) {
    if (state === 'up-to-date' || (state === 'changed' && !force)) continue;
    mkdirSync(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, file.content, { mode: 0o644 });
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
