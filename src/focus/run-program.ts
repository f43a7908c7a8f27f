import { execFile } from 'node:child_process';

export interface ProgramResult {
  /** Exit code 0. */
  ok: boolean;
  /** The program is not installed (ENOENT). */
  missing: boolean;
  stdout: string;
  stderr: string;
}

/** Runs one program; the focus code never builds a shell string, so a field can never become code. */
export type RunProgram = (
  program: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
) => Promise<ProgramResult>;

/** A program that answers within this is a live one; focusing never holds a request longer. */
const TIMEOUT_MS = 5000;

/** The real runner: the broker's own user and environment, plus `env`, an argument array, no shell. */
export const runProgram: RunProgram = (program, args, env = {}) =>
  new Promise((resolve) => {
    execFile(
      program,
      [...args],
      { env: { ...process.env, ...env }, timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        resolve({ ok: error === null, missing: code === 'ENOENT', stdout, stderr });
      },
    );
  });

/** The first line a program wrote to stderr, for a 409's reason. */
export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
