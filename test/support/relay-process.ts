/** The real notify-relay in a child process on a free port, with a temp --data folder and a movable clock. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NOTIFY_RELAY = fileURLToPath(new URL('../../src/relay-server/main.js', import.meta.url));

export interface RelayProcess {
  url: string;
  port: number;
  pid: number | undefined;
  /** The one-time operator setup link printed on the first start. */
  setupUrl: string | undefined;
  dataDir: string;
  /** Everything the relay printed so far (stdout and stderr). */
  output(): string;
  /** Moves the relay's clock forward. */
  advance(ms: number): void;
  stop(): Promise<number | null>;
  cleanup(): Promise<void>;
}

/** Mutation testing (stryker.relay.config.json): the relay runs the mutant the test run was given. */
export function activeMutant(): Record<string, string> {
  const mutant = process.env['__STRYKER_ACTIVE_MUTANT__'];
  return mutant === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: mutant };
}

export async function startRelay(
  options: { args?: string[]; dataDir?: string; maxOpenFiles?: number; env?: Record<string, string> } = {},
): Promise<RelayProcess> {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-test-'));
  const dataDir = options.dataDir ?? join(root, 'data');
  const clockFile = join(root, 'clock-offset');
  let offset = 0;
  writeFileSync(clockFile, '0');
  const argv = [
    NOTIFY_RELAY,
    '--port',
    '0',
    '--data',
    dataDir,
    '--name',
    'Test relay',
    ...(options.args ?? []),
  ];
  // A file-descriptor limit as a small server has (ulimit -n), set by the shell that then becomes the relay.
  const [command, commandArgs] =
    options.maxOpenFiles === undefined
      ? [process.execPath, argv]
      : ['bash', ['-c', `ulimit -n ${options.maxOpenFiles}; exec "$0" "$@"`, process.execPath, ...argv]];
  const child: ChildProcess = spawn(command, commandArgs, {
    env: {
      PATH: process.env['PATH'],
      NOTIFY_RELAY_CLOCK_OFFSET_FILE: clockFile,
      ...options.env,
      ...activeMutant(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`notify-relay did not start:\n${output}`)), 15_000);
    const check = (): void => {
      const match = /listening on (\S+)\n/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`notify-relay exited:\n${output}`)));
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid,
    get setupUrl() {
      return /Set up the operator account \(this link works once\): (\S+)\n/.exec(output)?.[1];
    },
    dataDir,
    output: () => output,
    advance(ms) {
      offset += ms;
      writeFileSync(clockFile, String(offset));
    },
    stop,
    async cleanup() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
