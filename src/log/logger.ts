import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { neutralize, truncate } from './log-text.js';

export type LogLevel = 'INFO' | 'WARN' | 'ERROR';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The most one day's file may hold; the last line written says that the rest of the day is dropped. */
export const MAX_LOG_FILE_BYTES = 64 * 1024 * 1024;

/**
 * `YYYY-MM-DD HH:mm:ss.fff [LEVEL] message` in local time (spec "Local configuration file"), always one
 * line: control and line-breaking characters are escaped and the message is cut to a bounded length.
 */
export function formatLogLine(at: Date, level: LogLevel, message: string): string {
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
  return `${date} ${time} [${level}] ${truncate(neutralize(message))}\n`;
}

/** `notify-YYYYMMDD.log` for the local date, so files rotate at local midnight. */
export function logFileName(at: Date): string {
  return `notify-${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}.log`;
}

/**
 * Appends to the daily file of the moment of each line. Secrets handed in are masked in every line,
 * a day's file stops growing at `maxFileBytes`, and a failed write is swallowed: logging must never
 * take the broker down.
 */
export class DailyFileLogger implements Logger {
  #file = '';
  #size = 0;
  #full = false;

  constructor(
    private readonly directory: string,
    private readonly secrets: () => readonly string[] = () => [],
    private readonly now: () => number = Date.now,
    private readonly maxFileBytes = MAX_LOG_FILE_BYTES,
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
      const file = join(this.directory, logFileName(at));
      if (file !== this.#file) this.open(file);
      if (this.#full) return;
      let line = formatLogLine(at, level, this.mask(message));
      const notice = formatLogLine(at, 'WARN', this.limitNotice());
      if (this.#size + Buffer.byteLength(line) + Buffer.byteLength(notice) > this.maxFileBytes) {
        line = notice;
        this.#full = true;
      }
      appendFileSync(file, line, { mode: 0o600 });
      this.#size += Buffer.byteLength(line);
    } catch {
      // A full disk or a read-only log folder must not stop the broker from serving.
    }
  }

  /**
   * The size of a day's file is read once, when the day's first line is written (a restart appends). A
   * file that ends with the limit notice is full though it is below the limit: the line that did not fit
   * before a restart would not fit now either, and a second notice would grow the file past its end.
   */
  private open(file: string): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    this.#file = file;
    try {
      this.#size = statSync(file).size;
    } catch {
      this.#size = 0;
    }
    this.#full = this.#size >= this.maxFileBytes || this.endsWithLimitNotice(file);
  }

  private endsWithLimitNotice(file: string): boolean {
    const ending = Buffer.from(`[WARN] ${this.limitNotice()}\n`);
    if (this.#size < ending.length) return false;
    const tail = Buffer.alloc(ending.length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, tail, 0, tail.length, this.#size - tail.length);
    } finally {
      closeSync(fd);
    }
    return tail.equals(ending);
  }

  private limitNotice(): string {
    const megabytes = Math.round(this.maxFileBytes / (1024 * 1024));
    return `this log file reached its limit of ${megabytes} MiB; the rest of today's lines are dropped`;
  }

  private mask(message: string): string {
    let masked = message;
    for (const secret of this.secrets()) {
      if (secret) masked = masked.split(secret).join('[redacted]');
    }
    return masked;
  }
}
