import type { NotifyctlCommand } from './command.js';
import { settingsCommand } from './settings.js';
import { soundsCommand } from './sounds.js';
import { typesCommand } from './types.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [settingsCommand, typesCommand, soundsCommand];
