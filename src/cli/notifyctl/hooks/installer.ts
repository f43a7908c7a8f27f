import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { attributesOf, replaceFile } from '../../../config/replace-file.js';
import type { HookTool } from '../../../domain/hooks/decision.js';
import { installedState, withOurHooks, withoutOurHooks, type InstalledState } from './hook-entries.js';
import { parseSettings, serializeSettings, type SettingsText } from './settings-file.js';
import type { HookTarget, PermissionAnswers } from './targets.js';

/** What a change would do to the file: its text before and after (undefined: no file). */
export interface FilePlan {
  file: string;
  before?: string;
  after?: string;
  /**
   * Set by install: the file as it was is kept beside it. 'new': no backup yet; 'replace': the backup
   * an earlier install left is older than the file, which holds none of our hooks now, so the file
   * as it is replaces it; 'keep': the backup is from the install whose hooks the file still holds.
   */
  backup?: 'new' | 'replace' | 'keep';
  /** Set when the plan writes the backup's text back and then removes the backup. */
  restoresBackup?: boolean;
  /** Set by uninstall when a backup stays: the file changed since install, so it is not put back. */
  keepsBackup?: boolean;
}

export const backupFile = (file: string) => `${file}.notify-backup`;

/** Reads a settings file; a malformed one throws MalformedSettingsError (nothing is written). */
export function readSettings(file: string): SettingsText {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return parseSettings(text);
}

export function planInstall(
  file: string,
  tool: HookTool,
  target: HookTarget,
  command: string,
  answers?: PermissionAnswers,
): FilePlan {
  const current = readSettings(file);
  const next = withOurHooks(current.settings, tool, target.events, target.entry(command, answers));
  if (current.text !== undefined && isDeepStrictEqual(next, current.settings)) {
    return { file, before: current.text, after: current.text };
  }
  return {
    file,
    ...(current.text !== undefined && { before: current.text }),
    after: serializeSettings(next, current),
    ...(current.text !== undefined && { backup: backupChoice(file, current, tool, command) }),
  };
}

function backupChoice(file: string, current: SettingsText, tool: HookTool, command: string) {
  const backup = readBackupText(file);
  if (backup === undefined) return 'new';
  const state = installedState(current.settings, tool, command);
  const holdsOurHooks = state.current.length + state.stale.length > 0;
  return holdsOurHooks || backup === current.text ? 'keep' : 'replace';
}

/**
 * Removes our entries. When what is left is what the backup (taken before install) held, the
 * backup's own bytes come back, so the file is exactly the one install found; a file install created
 * and nothing else uses is removed.
 */
export function planUninstall(file: string, tool: HookTool): FilePlan {
  const current = readSettings(file);
  if (current.text === undefined) return { file };
  const next = withoutOurHooks(current.settings, tool);
  if (isDeepStrictEqual(next, current.settings)) return { file, before: current.text, after: current.text };
  const backup = readBackup(file);
  if (backup !== undefined && isDeepStrictEqual(withoutEmpty(next), withoutEmpty(backup.settings))) {
    return { file, before: current.text, after: backup.text!, restoresBackup: true };
  }
  if (backup === undefined && Object.keys(next).length === 0) return { file, before: current.text };
  return {
    file,
    before: current.text,
    after: serializeSettings(next, current),
    ...(existsSync(backupFile(file)) && { keepsBackup: true }),
  };
}

export function changes(plan: FilePlan): boolean {
  return plan.before !== plan.after;
}

/**
 * Applies a plan: the backup first, with the original's mode and owner (settings often hold API
 * keys), then the new text.
 */
export function applyPlan(plan: FilePlan): { backup?: string } {
  if (!changes(plan)) return {};
  if ((plan.backup === 'new' || plan.backup === 'replace') && plan.before !== undefined) {
    const original = attributesOf(realpathSync(plan.file));
    replaceFile(backupFile(plan.file), plan.before, original, 0o600);
  }
  if (plan.after === undefined) {
    rmSync(plan.file, { force: true });
  } else {
    writeInPlace(plan.file, plan.after);
  }
  if (plan.restoresBackup) rmSync(backupFile(plan.file), { force: true });
  return plan.backup === undefined ? {} : { backup: backupFile(plan.file) };
}

/**
 * A linked settings file (dotfiles kept elsewhere) is written where the link points, so the link
 * stays; the file keeps its mode and owner.
 */
function writeInPlace(file: string, text: string): void {
  const target = existsSync(file) ? realpathSync(file) : file;
  mkdirSync(dirname(target), { recursive: true });
  replaceFile(target, text, attributesOf(target));
}

export function stateOf(file: string, tool: HookTool, command: string): InstalledState {
  return installedState(readSettings(file).settings, tool, command);
}

function readBackupText(file: string): string | undefined {
  try {
    return readFileSync(backupFile(file), 'utf8');
  } catch {
    return undefined;
  }
}

function readBackup(file: string): SettingsText | undefined {
  try {
    const backup = parseSettings(readBackupText(file));
    return backup.text === undefined ? undefined : backup;
  } catch {
    return undefined;
  }
}

/** Settings with empty event lists and an empty `hooks` left out, for comparing content. */
function withoutEmpty(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings['hooks'];
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return settings;
  const kept = Object.fromEntries(
    Object.entries(hooks).filter(([, groups]) => !(Array.isArray(groups) && groups.length === 0)),
  );
  const rest = { ...settings };
  delete rest['hooks'];
  return Object.keys(kept).length === 0 ? rest : { ...rest, hooks: kept };
}
