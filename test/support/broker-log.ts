import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TempHome } from './broker-process.js';

/** Everything the broker logged so far, all daily files together. */
export function readLog(home: TempHome): string {
  if (!existsSync(home.logDir)) return '';
  return readdirSync(home.logDir)
    .sort()
    .map((file) => readFileSync(join(home.logDir, file), 'utf8'))
    .join('');
}

/** Polls the log until a line contains `text`; resolves to that line. */
export async function waitForLog(home: TempHome, text: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = readLog(home)
      .split('\n')
      .find((candidate) => candidate.includes(text));
    if (line) return line;
    if (Date.now() > deadline)
      throw new Error(`no log line with "${text}" within ${timeoutMs} ms:\n${readLog(home)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
