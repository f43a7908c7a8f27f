import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { attributesOf, replaceFile } from '../../../config/replace-file.js';
import { CliError } from '../failure.js';
import { checkInsideProject, createFolders, nearestExistingFolder } from './destination.js';
import type { SkillFile } from './targets.js';

/** What installing would do to one file: write it new, leave it, or meet a copy that differs. */
export type FileState = 'missing' | 'up-to-date' | 'changed';

export interface PlannedFile {
  file: SkillFile;
  target: string;
  state: FileState;
}

export interface InstallPlan {
  /** The `notify` skill folder; nothing outside it is ever written. */
  skillDir: string;
  /** With --scope project: the project folder the skill must stay in. */
  project?: string;
  files: PlannedFile[];
}

/** The skill files are a few kilobytes; anything much larger is not one of ours and is not read. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/**
 * Reads what is on disk now; writes nothing. Refuses (CliError) when the skill folder, or a folder
 * inside it that a file goes into, is a symbolic link or not a folder: writing through it would
 * change files outside the skill folder (spec "install-skill").
 */
export function planInstall(skillDir: string, files: SkillFile[], project?: string): InstallPlan {
  checkDestination(skillDir, project);
  for (const dir of foldersOf(skillDir, files)) checkFolder(dir);
  return {
    skillDir,
    ...(project !== undefined && { project }),
    files: files.map((file) => {
      const target = join(skillDir, ...file.path.split('/'));
      return { file, target, state: stateOf(target, file.content) };
    }),
  };
}

/** The skill folder, then every folder beneath it that holds a skill file, parents before children. */
function foldersOf(skillDir: string, files: SkillFile[]): string[] {
  const folders = new Set<string>([skillDir]);
  for (const file of files) {
    const parts = file.path.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) folders.add(join(skillDir, ...parts.slice(0, depth)));
  }
  return [...folders];
}

/** Returns whether `dir` exists; throws when something other than a real folder stands there. */
function checkFolder(dir: string): boolean {
  let stats;
  try {
    stats = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (stats.isSymbolicLink()) {
    throw new CliError(
      `${dir} is a symbolic link. The skill is only written into real folders, so that nothing outside the notify skill folder changes; replace the link with a folder and try again. Nothing written.`,
    );
  }
  if (!stats.isDirectory()) {
    throw new CliError(
      `${dir} is not a folder, where the skill needs one. Move it away and try again. Nothing written.`,
    );
  }
  return true;
}

function checkDestination(skillDir: string, project: string | undefined): void {
  if (project !== undefined) checkInsideProject(skillDir, project);
  else nearestExistingFolder(skillDir);
}

/**
 * Compares what stands at `target` with the embedded file. Only a regular file of sane size is read:
 * opened without blocking and checked on the open descriptor, so neither a FIFO (which would hang the
 * read) nor a link to /dev/zero (which never ends) is read, even when swapped in after a check.
 */
function stateOf(target: string, content: string): FileState {
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) {
      throw new CliError(`${target} is a folder, where the skill needs a file. Move it away and try again.`);
    }
    if (!stats.isFile()) {
      throw new CliError(
        `${target} is not a regular file (a FIFO, a device, or a link to one), so it is neither read nor replaced. Move it away and try again. Nothing written.`,
      );
    }
    if (stats.size > MAX_SKILL_FILE_BYTES) return 'changed';
    const bytes = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < bytes.length; length += read) {
      read = readSync(fd, bytes, length, bytes.length - length, null);
    }
    if (length > MAX_SKILL_FILE_BYTES) return 'changed';
    return bytes.toString('utf8', 0, length) === content ? 'up-to-date' : 'changed';
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes missing files, and changed ones too when `force`. Folders are created one at a time and
 * checked again just before use, so a link put in place after planning is refused too. Each write
 * goes to a fresh temp file beside the target and is renamed over it, so an agent never reads half a
 * skill and a symlink in place of a skill file is replaced rather than followed to a file elsewhere;
 * a file replaced keeps its mode and owner.
 */
export function applyInstall(plan: InstallPlan, force: boolean): void {
  const toWrite = plan.files.filter(({ state }) => state === 'missing' || (state === 'changed' && force));
  if (toWrite.length === 0) return;
  const { skillDir } = plan;
  checkDestination(skillDir, plan.project);
  if (!checkFolder(skillDir)) {
    createFolders(skillDir);
    checkFolder(skillDir);
  }
  for (const { file, target } of toWrite) {
    const parts = file.path.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const dir = join(skillDir, ...parts.slice(0, depth));
      if (!checkFolder(dir)) mkdirSync(dir);
    }
    replaceFile(target, file.content, attributesOf(target));
  }
}
