import type { NotifyctlCommand } from './command.js';
import { outboxCommand } from './outbox-command.js';
import { providersCommand } from './providers-command.js';
import { routesCommand } from './routes-command.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [providersCommand, routesCommand, outboxCommand];
