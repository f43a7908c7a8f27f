/**
 * notifyd runs all day, so what it costs to start and to sit idle is measured against the bare
 * node:http + better-sqlite3 server (baseline-server.ts: opens and migrates the same database file),
 * both as their own processes, interleaved run by run so that machine noise hits all alike:
 *
 * - ready: from exec to the first 200 on GET /health, with an empty data folder. Target ≤ 2.5×.
 * - CPU until ready: user + system time the process used until then, which a busy machine moves less.
 * - idle RSS: the resident set a few seconds after ready. Target ≤ 1.35× with no provider enabled
 *   (the delivery thread off). With a provider enabled the delivery thread runs; what it adds is
 *   printed beside, measured after one notification was delivered through it.
 * - ready with a large database (100,000 notifications): the start-up integrity check reads the whole
 *   file, so this is reported apart, as what it adds to the empty start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTempHome,
  freePort,
  NOTIFYD,
  readConfigFile,
  startBroker,
  writeConfig,
  type TempHome,
} from '../test/support/broker-process.js';
import { startReceiver, type Receiver } from '../test/support/receiver.js';
import { printTable } from './support/report.js';
import { seedNotifications } from './support/seed.js';

const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const RUNS = 7;
const LARGE_RUNS = 3;
const LARGE_ROWS = 100_000;
/** Long enough for start-up garbage to be collected and lazy work that follows the start to settle. */
const SETTLE_MS = 3000;
const POLL_MS = 5;
const TARGETS = { ready: 2.5, rss: 1.35 };

interface Sample {
  readyMs: number;
  /** CPU time (user + system, all threads) the process used until ready: what a busy machine moves least. */
  cpuMs: number;
  rssMb: number;
}

interface Case {
  /** Starts one process listening on `port`; the data folder is the case's own. */
  start(port: number): ChildProcess;
  /** Run between ready and the RSS reading (a delivery that brings the delivery thread up). */
  afterReady?(port: number): Promise<void>;
  cleanup(): void;
}

export async function runDaemonStartupBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); figures are only comparable on an idle machine, rerun if it was busy`,
  );
  const receiver = await startReceiver();
  const withProvider = await homeWithEnabledWebhook(receiver.url);
  const cases: Case[] = [bareCase(), notifydCase(), deliveringCase(withProvider, receiver)];
  try {
    for (const each of cases) await measure(each);
    const samples = cases.map(() => [] as Sample[]);
    for (let run = 0; run < RUNS; run++)
      for (const [index, each] of cases.entries()) samples[index]!.push(await measure(each));
    const [bare, idle, delivering] = samples.map(medians) as [Sample, Sample, Sample];
    console.log(
      `runs: ${RUNS} each, interleaved; medians. RSS read ${SETTLE_MS / 1000} s after ready, from /proc/<pid>/status`,
    );
    printTable('notifyd start-up and idle memory vs a bare node:http + better-sqlite3 server', [
      {
        label: 'ready, empty data folder (ms)',
        broker: idle.readyMs,
        baseline: bare.readyMs,
        target: `≤ ${TARGETS.ready}× baseline`,
        pass: idle.readyMs <= TARGETS.ready * bare.readyMs,
      },
      { label: 'CPU until ready (ms)', broker: idle.cpuMs, baseline: bare.cpuMs },
      {
        label: 'idle RSS, delivery thread off (MB)',
        broker: idle.rssMb,
        baseline: bare.rssMb,
        target: `≤ ${TARGETS.rss}× baseline`,
        pass: idle.rssMb <= TARGETS.rss * bare.rssMb,
      },
      {
        label: 'ready, a provider enabled (ms)',
        broker: delivering.readyMs,
        baseline: bare.readyMs,
      },
      {
        label: 'idle RSS, delivery thread on (MB)',
        broker: delivering.rssMb,
        baseline: bare.rssMb,
      },
    ]);
    console.log(
      `the delivery thread costs ${(delivering.rssMb - idle.rssMb).toFixed(1)} MB of RSS, ` +
        `${(delivering.readyMs - idle.readyMs).toFixed(0)} ms of ready`,
    );
  } finally {
    cases.forEach((each) => each.cleanup());
    await receiver.close();
  }
  await largeDatabase();
}

/**
 * Starts the case's process, times exec to the first 200 on /health, then (unless only ready is asked
 * for) settles and reads its RSS; stops it.
 */
async function measure(each: Case, readyOnly = false): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = each.start(port);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await untilHealthy(port, child, () => output);
    const readyMs = performance.now() - started;
    const cpuMs = cpuMilliseconds(child.pid!);
    if (readyOnly) return { readyMs, cpuMs, rssMb: Number.NaN };
    await each.afterReady?.(port);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { readyMs, cpuMs, rssMb: residentMegabytes(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function bareCase(): Case {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-bare-'));
  let run = 0;
  return {
    // A new database file every run, as notifyd gets an empty data folder.
    start: (port) =>
      spawn(process.execPath, [BASELINE, join(dir, `run-${run++}.db`), String(port)], { stdio: 'pipe' }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** notifyd with a new temp HOME every run: only config.json (naming the port) exists at exec. */
function notifydCase(): Case {
  const homes: TempHome[] = [];
  return {
    start: (port) => {
      const home = createTempHome();
      homes.push(home);
      writeConfig(home, { port });
      return spawn(process.execPath, [NOTIFYD], { env: home.env, stdio: 'pipe' });
    },
    cleanup: () => homes.forEach((home) => home.cleanup()),
  };
}

/** notifyd on a HOME whose database holds an enabled webhook provider and a route matching everything. */
function deliveringCase(home: TempHome, receiver: Receiver): Case {
  let token = '';
  return {
    start: (port) => {
      writeConfig(home, { ...readConfigFile(home), port });
      token = readConfigFile(home)['authToken'] as string;
      return spawn(process.execPath, [NOTIFYD], { env: home.env, stdio: 'pipe' });
    },
    afterReady: async (port) => {
      const before = receiver.received.length;
      const response = await fetch(`http://127.0.0.1:${port}/v1/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Bench', message: 'brings the delivery thread up' }),
      });
      if (response.status !== 201) throw new Error(`create answered ${response.status}`);
      while (receiver.received.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    cleanup: () => home.cleanup(),
  };
}

async function homeWithEnabledWebhook(url: string): Promise<TempHome> {
  const broker = await startBroker();
  try {
    const call = async (path: string, body?: unknown) => {
      const response = await broker.request('POST', path, body ?? {});
      if (response.status >= 300) throw new Error(`${path} answered ${response.status}`);
      return (await response.json()) as { id: string };
    };
    const provider = await call('/v1/providers', { kind: 'webhook', name: 'bench', settings: { url } });
    await call(`/v1/providers/${provider.id}/enable`);
    const route = await call('/v1/routes', { providerId: provider.id, minimumPriority: 'low' });
    await call(`/v1/routes/${route.id}/enable`);
  } finally {
    await broker.stop();
  }
  return broker.home;
}

/** The start-up integrity check reads every page of the file: what a large database adds to ready. */
async function largeDatabase(): Promise<void> {
  const large = createTempHome();
  try {
    seedNotifications(large.databaseFile, LARGE_ROWS);
    const empty = notifydCase();
    const seeded: Case = {
      start: (port) => {
        writeConfig(large, { port });
        return spawn(process.execPath, [NOTIFYD], { env: large.env, stdio: 'pipe' });
      },
      cleanup: () => undefined,
    };
    const emptyReady: number[] = [];
    const seededReady: number[] = [];
    for (let run = 0; run < LARGE_RUNS; run++) {
      emptyReady.push((await measure(empty, true)).readyMs);
      seededReady.push((await measure(seeded, true)).readyMs);
    }
    empty.cleanup();
    const [withRows, without] = [median(seededReady), median(emptyReady)];
    console.log(
      `\nready with ${LARGE_ROWS.toLocaleString('en')} stored notifications (integrity check included): ` +
        `${withRows.toFixed(0)} ms, +${(withRows - without).toFixed(0)} ms over the empty data folder ` +
        `(${without.toFixed(0)} ms); ${LARGE_RUNS} runs, medians`,
    );
  } finally {
    large.cleanup();
  }
}

/** Polls GET /health every few milliseconds until it answers 200; fails if the process exits first. */
async function untilHealthy(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before ready:\n${output()}`);
    if ((await healthStatus(port)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function healthStatus(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = request({ host: '127.0.0.1', port, path: '/health', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    probe.once('error', () => resolve(undefined));
    probe.end();
  });
}

/** Linux's USER_HZ, the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kilobytes / 1024;
}

function medians(samples: Sample[]): Sample {
  return {
    readyMs: median(samples.map((sample) => sample.readyMs)),
    cpuMs: median(samples.map((sample) => sample.cpuMs)),
    rssMb: median(samples.map((sample) => sample.rssMb)),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
