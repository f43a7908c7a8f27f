import { answerCommand } from './answer.js';
import { dismissCommand, resolveCommand } from './bulk-status.js';
import type { NotifyctlCommand } from './command.js';
import { countCommand } from './count.js';
import { dbCommand } from './db-command.js';
import { doctorCommand } from './doctor.js';
import { hookCommand } from './hook-command.js';
import { hooksCommand } from './hooks/hooks-command.js';
import { mcpCommand } from './mcp.js';
import { openCommand } from './open.js';
import { outboxCommand } from './outbox-command.js';
import { pendingCommand } from './pending.js';
import { providersCommand } from './providers-command.js';
import { remoteCommand } from './remote/remote-command.js';
import { routesCommand } from './routes-command.js';
import { serviceCommand } from './service.js';
import { sessionsCommand } from './sessions-command.js';
import { settingsCommand } from './settings.js';
import { snoozeCommand } from './snooze.js';
import { focusCommand } from './focus.js';
import { soundsCommand } from './sounds.js';
import { testToast } from './test-toast.js';
import { tokensCommand } from './tokens-command.js';
import { typesCommand } from './types.js';
import { uninstallCommand } from './uninstall.js';
import { waitCommand } from './wait.js';
import { watchCommand } from './watch.js';

/** Every notifyctl command, in the order `notifyctl --help` lists them. */
export const COMMANDS: readonly NotifyctlCommand[] = [
  settingsCommand,
  typesCommand,
  soundsCommand,
  testToast,
  providersCommand,
  routesCommand,
  outboxCommand,
  hookCommand,
  hooksCommand,
  watchCommand,
  countCommand,
  resolveCommand,
  dismissCommand,
  waitCommand,
  pendingCommand,
  answerCommand,
  openCommand,
  sessionsCommand,
  tokensCommand,
  remoteCommand,
  snoozeCommand,
  focusCommand,
  mcpCommand,
  serviceCommand,
  doctorCommand,
  dbCommand,
  uninstallCommand,
];
