import { spawn } from 'node:child_process';
import { NOBODY } from './foreign-server.js';
import { waitFor } from './wait-for.js';

/** Another local user reading every command line (and every environment it may) as fast as it can. */
export interface ProcWatcher {
  /** Each distinct command line (arguments joined by spaces) and readable environment seen so far. */
  seen(): string[];
  /** Resolves once a command line or environment containing `text` was seen. */
  sees(text: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts, as `nobody`, a loop over /proc/<pid>/cmdline and /proc/<pid>/environ: what any user of the
 * machine can do to read a secret put on a command line. Resolves once it has read /proc once.
 */
export async function startProcWatcher(): Promise<ProcWatcher> {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const seen = new Set();
    let first = true;
    const pass = () => {
      for (const pid of readdirSync('/proc')) {
        if (!/^\\d+$/.test(pid) || pid === String(process.pid)) continue;
        for (const file of ['cmdline', 'environ']) {
          let text;
          try { text = readFileSync('/proc/' + pid + '/' + file, 'latin1'); } catch { continue; }
          text = text.replace(/\\0+$/, '').replaceAll('\\0', ' ');
          if (text === '' || seen.has(text)) continue;
          seen.add(text);
          process.stdout.write('SEEN ' + JSON.stringify(text) + '\\n');
        }
      }
      if (first) process.stdout.write('READY\\n');
      first = false;
      setImmediate(pass);
    };
    pass();`;
  const child = spawn(process.execPath, ['-e', script], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: '/',
    env: {},
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    const complete = buffered.split('\n');
    buffered = complete.pop()!;
    lines.push(...complete);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(() => lines.includes('READY') || child.exitCode !== null, 'the /proc watcher reading');
  if (!lines.includes('READY')) throw new Error(`the /proc watcher as nobody exited with ${child.exitCode}`);
  const seen = () =>
    lines.filter((line) => line.startsWith('SEEN ')).map((line) => JSON.parse(line.slice(5)) as string);
  return {
    seen,
    sees: (text) =>
      waitFor(() => seen().find((line) => line.includes(text)), `the /proc watcher seeing ${text}`),
    async stop() {
      child.kill();
      await exited;
    },
  };
}
