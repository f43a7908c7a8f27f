import type { NotifyctlCommand } from './command.js';
import { testToast } from './test-toast.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [testToast];
