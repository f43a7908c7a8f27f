import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolvePaths } from '../../../config/paths.js';
import { formatLogLine, logFileName, type LogLevel } from '../../../log/logger.js';

/**
 * One line in Notify's daily log (spec "Local configuration file"), written by the hook process
 * itself since it has no broker to ask. Callers pass only event names and outcomes, never payload
 * text or the token. A failed write is ignored: the hook must not fail the agent over a log line.
 */
export function logHookLine(level: LogLevel, message: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const directory = resolvePaths(env).logDir;
    const at = new Date();
    const file = join(directory, logFileName(at));
    const line = formatLogLine(at, level, message);
    try {
      appendFileSync(file, line, { mode: 0o600 });
    } catch (error) {
      // The folder exists after the first line of the day, so only the first hook pays for mkdir.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      appendFileSync(file, line, { mode: 0o600 });
    }
  } catch {
    // Nothing better to do: stdout and stderr belong to the agent.
  }
}
