import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  headers?: Record<string, string>;
  body?: string;
  /** The server's process id: its CPU time per request is then measured too (Linux only). */
  pid?: number;
  /** wrk only: another Lua script (absolute path) and environment for it, e.g. to vary each request. */
  wrk?: { script: string; env: Record<string, string> };
}

/**
 * What a load run measured. `latencies` (ms) are either every response's (autocannon) or evenly spaced
 * quantiles of `requests` responses (wrk); each one stands for requests / latencies.length responses,
 * so several runs merge into one distribution.
 */
export interface Sample {
  seconds: number;
  requests: number;
  latencies: number[];
  /** CPU time the server process spent during the run, when it could be read. */
  cpuMs?: number;
}

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /**
   * CPU time of the server per answered request: unlike req/s, barely moved by other programs
   * competing for the cores, so it is the figure to trust on a busy machine.
   */
  cpuMicrosPerRequest?: number;
}

/** utime + stime of a process in ms from /proc (clock ticks of 10 ms); undefined off Linux. */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run. Latencies come from its per-response times (sub-millisecond, where its own
 * histogram rounds to whole ms). Any connection error or non-2xx answer fails the run: the figures
 * would lie.
 */
export async function load(options: LoadOptions, seconds: number): Promise<Sample> {
  const latencies: number[] = [];
  const cpuBefore = cpuTimeMs(options.pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        connections: options.connections,
        duration: seconds,
        headers: options.headers ?? {},
        ...(options.body !== undefined && { body: options.body }),
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${options.method} ${options.url}: ${result.errors} connection errors and ${result.non2xx} non-2xx answers out of ${result.requests.total}`,
    );
  }
  const cpuAfter = cpuTimeMs(options.pid);
  return {
    seconds: result.duration,
    requests: latencies.length,
    latencies,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && { cpuMs: cpuAfter - cpuBefore }),
  };
}

/**
 * Measures two servers for `seconds` each, in slices ordered A B B A (A B B A ...), so a disturbance
 * of the machine (a build started by someone else) falls on both rather than on one.
 */
export async function comparePair(
  a: LoadOptions,
  b: LoadOptions,
  seconds: number,
  slices = 2,
  run: (options: LoadOptions, seconds: number) => Promise<Sample> = load,
): Promise<[Figures, Figures]> {
  const samples: [Sample[], Sample[]] = [[], []];
  const slice = seconds / slices;
  for (let i = 0; i < slices; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) samples[which]!.push(await run(which === 0 ? a : b, slice));
  }
  return [figuresOf(samples[0]), figuresOf(samples[1])];
}

export function figuresOf(samples: Sample[]): Figures {
  const points = samples
    .flatMap((sample) =>
      sample.latencies.map((ms) => ({ ms, weight: sample.requests / sample.latencies.length })),
    )
    .sort((x, y) => x.ms - y.ms);
  const requests = samples.reduce((sum, sample) => sum + sample.requests, 0);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const at = (quantile: number) => {
    let seen = 0;
    for (const point of points) {
      seen += point.weight;
      if (seen > quantile * requests) return point.ms;
    }
    return points.at(-1)?.ms ?? NaN;
  };
  const cpuMs = samples.every((sample) => sample.cpuMs !== undefined)
    ? samples.reduce((sum, sample) => sum + sample.cpuMs!, 0)
    : undefined;
  return {
    requestsPerSecond: requests / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests,
    ...(cpuMs !== undefined && { cpuMicrosPerRequest: (cpuMs * 1000) / requests }),
  };
}
