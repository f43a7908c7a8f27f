import type { NotifyctlCommand } from './command.js';
import { dbCommand } from './db-command.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [dbCommand];
