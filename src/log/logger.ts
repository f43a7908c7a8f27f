import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'INFO' | 'WARN' | 'ERROR';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DD HH:mm:ss.fff [LEVEL] message` in local time (spec "Local configuration file"). */
export function formatLogLine(at: Date, level: LogLevel, message: string): string {
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
  return `${date} ${time} [${level}] ${message.replace(/[\r\n]+/g, ' ')}\n`;
}

/** `notify-YYYYMMDD.log` for the local date, so files rotate at local midnight. */
export function logFileName(at: Date): string {
  return `notify-${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}.log`;
}

/**
 * Appends to the daily file of the moment of each line. Secrets handed in are masked in every line,
 * and a failed write is swallowed: logging must never take the broker down.
 */
export class DailyFileLogger implements Logger {
  constructor(
    private readonly directory: string,
    private readonly secrets: () => readonly string[] = () => [],
    private readonly now: () => number = Date.now,
  ) {}

  info(message: string): void {
    this.write('INFO', message);
  }

  warn(message: string): void {
    this.write('WARN', message);
  }

  error(message: string): void {
    this.write('ERROR', message);
  }

  private write(level: LogLevel, message: string): void {
    const at = new Date(this.now());
    try {
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      appendFileSync(join(this.directory, logFileName(at)), formatLogLine(at, level, this.mask(message)), {
        mode: 0o600,
      });
    } catch {
      // A full disk or a read-only log folder must not stop the broker from serving.
    }
  }

  private mask(message: string): string {
    let masked = message;
    for (const secret of this.secrets()) {
      if (secret) masked = masked.split(secret).join('[redacted]');
    }
    return masked;
  }
}
