import { writeSync } from 'node:fs';

/**
 * Output of `notify`. Writing to the file descriptors directly skips building process.stdout and
 * process.stderr, a measurable share of a short command's start-up (bench/client-startup.ts).
 */
export function printLine(text: string): void {
  write(1, `${text}\n`);
}

export function printError(text: string): void {
  write(2, `${text}\n`);
}

/** API objects are shown as the spec says: indented JSON on stdout. */
export function printJson(value: unknown): void {
  printLine(jsonText(value));
}

export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function write(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The reader went away (`notify list | head -1`): nothing left to tell it.
    if (code === 'EPIPE') return;
    // A non-blocking descriptor that is full: let the stream queue the rest and drain it before exit.
    if (code !== 'EAGAIN') throw error;
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
  }
}
