import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs, type LoadOptions, type Sample } from './load.js';

/** The Lua script beside the sources (dist/bench/support → bench/support). */
const SCRIPT = fileURLToPath(new URL('../../../bench/support/wrk-report.lua', import.meta.url));

interface WrkResult {
  requests: number;
  durationMicros: number;
  socketErrors: number;
  non2xx: number;
  quantilesMicros: number[];
}

/**
 * One run of wrk (C, one thread: it leaves the cores to the server, where a JS load generator takes as
 * much CPU as the server it measures). Any socket error or non-2xx answer fails the run.
 */
export async function loadWithWrk(options: LoadOptions, seconds: number): Promise<Sample> {
  const script = options.wrk?.script ?? SCRIPT;
  const args = ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  const cpuBefore = cpuTimeMs(options.pid);
  const output = await run(args, {
    WRK_METHOD: options.method,
    WRK_BODY: options.body ?? '',
    WRK_REPORT_LUA: SCRIPT,
    ...options.wrk?.env,
  });
  const cpuAfter = cpuTimeMs(options.pid);
  const line = output.split('\n').find((text) => text.startsWith('WRK_RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${output}`);
  const result = JSON.parse(line.slice('WRK_RESULT '.length)) as WrkResult;
  if (result.socketErrors > 0 || result.non2xx > 0) {
    throw new Error(
      `${options.method} ${options.url}: ${result.socketErrors} socket errors and ${result.non2xx} non-2xx answers out of ${result.requests}`,
    );
  }
  return {
    seconds: result.durationMicros / 1e6,
    requests: result.requests,
    latencies: result.quantilesMicros.map((micros) => micros / 1000),
    ...(cpuBefore !== undefined && cpuAfter !== undefined && { cpuMs: cpuAfter - cpuBefore }),
  };
}

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) =>
      reject(new Error(`cannot run wrk (apt-get install wrk): ${error.message}`)),
    );
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrk exited with ${code}:\n${output}`)),
    );
  });
}
