import type { NotifyctlCommand } from './command.js';
import { hookCommand } from './hook-command.js';
import { hooksCommand } from './hooks/hooks-command.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [hookCommand, hooksCommand];
