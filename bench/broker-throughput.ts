/**
 * The broker core against a bare node:http + better-sqlite3 server doing the same insert with the same
 * indexes at the same durability, both as separate processes on loopback:
 *
 * - POST /v1/notifications, loaded by wrk (C, one thread, so the generator does not take the servers'
 *   CPU), 16 connections for 10 s after a warm-up: throughput and p50/p99 latency, targets throughput
 *   ≥ 1.0× and p99 ≤ 2× the baseline's.
 * - GET /v1/notifications?limit=500 with 100,000 stored rows, one connection (autocannon): p50 ≤ 20 ms.
 *
 * Each measurement is split in slices ordered broker, baseline, baseline, broker (support/load.ts), so a
 * disturbance of the shared machine weighs on both sides; server CPU per request is printed as the
 * figure a busy machine barely moves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { startBaseline, type BaselineProcess } from './support/baseline-process.js';
import { comparePair, load, type Figures, type LoadOptions } from './support/load.js';
import { brokerTarget, jsonPosts, type LoadTarget } from './support/load-target.js';
import { cpuRow, printTable } from './support/report.js';
import { loadWithWrk } from './support/wrk.js';
import { seedNotifications } from './support/seed.js';

const CONNECTIONS = 16;
const SECONDS = 10;
const WARM_UP_SECONDS = 3;
const LIST_CONNECTIONS = 1;
const LIST_SECONDS = 5;
const STORED_ROWS = 100_000;

const TARGET_THROUGHPUT_RATIO = 1.0;
const TARGET_P99_RATIO = 2;
const TARGET_LIST_P50_MS = 20;

/** What an agent typically sends: no key, so every request is a fresh insert on every server. */
export const CREATE_BODY = JSON.stringify({
  title: 'Build finished',
  message: 'The release build of notify finished in 42 s; 312 tests passed, 0 failed.',
  type: 'task_done',
  priority: 'normal',
  agent: 'claude-code',
  project: 'notify',
  cwd: '/home/user/projects/notify',
  pid: 41234,
  metadata: { branch: 'main', commit: '0854a0d', durationMs: 42000 },
});

export async function runBrokerBench(): Promise<void> {
  const [oneMinute] = loadavg();
  console.log(
    `machine load average ${oneMinute!.toFixed(2)} (1 min); figures are only comparable on an idle machine, rerun if it was busy`,
  );
  const baselineDir = mkdtempSync(join(tmpdir(), 'notify-bench-baseline-'));
  const baselineFile = join(baselineDir, 'baseline.db');
  let broker: BrokerProcess | undefined = await startBroker({
    config: { rateLimitPerSecond: 1_000_000_000 },
  });
  const home = broker.home;
  let baseline: BaselineProcess | undefined;
  try {
    baseline = await startBaseline(baselineFile);
    // The broker is restarted between the two loads: each target names the one running now.
    const runningBroker = (path: string): LoadTarget => brokerTarget(broker!, path);
    const baselineTarget = (path: string): LoadTarget => ({
      url: `http://127.0.0.1:${baseline!.port}${path}`,
      headers: {},
      pid: baseline!.pid,
    });

    // POST: both must answer 201 with bodies of about the same size before being compared.
    const post = (target: LoadTarget): LoadOptions => jsonPosts(target, CREATE_BODY, CONNECTIONS);
    const creates = '/v1/notifications';
    const sizes = await Promise.all(
      [runningBroker, baselineTarget].map(async (target) => {
        const { url, headers, body } = post(target(creates));
        const response = await fetch(url, { method: 'POST', headers, body });
        if (response.status !== 201)
          throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
        return (await response.text()).length;
      }),
    );
    console.log(`create response bodies: broker ${sizes[0]} bytes, baseline ${sizes[1]} bytes`);

    process.stdout.write(`POST: warm-up ${WARM_UP_SECONDS} s each, then ${SECONDS} s each...`);
    await loadWithWrk(post(baselineTarget(creates)), WARM_UP_SECONDS);
    await loadWithWrk(post(runningBroker(creates)), WARM_UP_SECONDS);
    const [postBroker, postBaseline] = await comparePair(
      post(runningBroker(creates)),
      post(baselineTarget(creates)),
      SECONDS,
      2,
      loadWithWrk,
    );
    console.log(' done');
    printPost(postBroker, postBaseline);

    // GET: top both databases up to STORED_ROWS; the broker is stopped while its file is written.
    await broker.stop();
    broker = undefined;
    const started = Date.now();
    const seeded = seedNotifications(home.databaseFile, STORED_ROWS);
    seedNotifications(baselineFile, STORED_ROWS);
    console.log(`\nseeded ${seeded} rows into the broker's database in ${Date.now() - started} ms (both)`);
    broker = await startBroker({ home });

    const list = (target: LoadTarget): LoadOptions => ({
      url: target.url,
      method: 'GET',
      connections: LIST_CONNECTIONS,
      headers: target.headers,
      ...(target.pid !== undefined && { pid: target.pid }),
    });
    const newest = '/v1/notifications?limit=500';
    process.stdout.write(`GET: warm-up ${WARM_UP_SECONDS} s each, then ${LIST_SECONDS} s each...`);
    await load(list(baselineTarget(newest)), WARM_UP_SECONDS);
    await load(list(runningBroker(newest)), WARM_UP_SECONDS);
    const [listBroker, listBaseline] = await comparePair(
      list(runningBroker(newest)),
      list(baselineTarget(newest)),
      LIST_SECONDS,
    );
    console.log(' done');
    printList(listBroker, listBaseline);
  } finally {
    await baseline?.stop();
    await broker?.stop();
    home.cleanup();
    rmSync(baselineDir, { recursive: true, force: true });
  }
}

function printPost(broker: Figures, baseline: Figures): void {
  const throughputRatio = broker.requestsPerSecond / baseline.requestsPerSecond;
  printTable(`POST /v1/notifications (wrk), ${CONNECTIONS} connections, ${SECONDS} s`, [
    {
      label: 'throughput (req/s)',
      broker: broker.requestsPerSecond,
      baseline: baseline.requestsPerSecond,
      target: `≥ ${TARGET_THROUGHPUT_RATIO.toFixed(2)}× baseline`,
      pass: throughputRatio >= TARGET_THROUGHPUT_RATIO,
    },
    { label: 'latency p50 (ms)', broker: broker.p50, baseline: baseline.p50 },
    {
      label: 'latency p99 (ms)',
      broker: broker.p99,
      baseline: baseline.p99,
      target: `≤ ${TARGET_P99_RATIO.toFixed(2)}× baseline`,
      pass: broker.p99 <= TARGET_P99_RATIO * baseline.p99,
    },
    ...cpuRow('server CPU per request (µs)', broker, baseline),
  ]);
}

function printList(broker: Figures, baseline: Figures): void {
  printTable(
    `GET /v1/notifications?limit=500, ${STORED_ROWS} stored rows, ${LIST_CONNECTIONS} connection, ${LIST_SECONDS} s`,
    [
      { label: 'throughput (req/s)', broker: broker.requestsPerSecond, baseline: baseline.requestsPerSecond },
      {
        label: 'latency p50 (ms)',
        broker: broker.p50,
        baseline: baseline.p50,
        target: `≤ ${TARGET_LIST_P50_MS} ms`,
        pass: broker.p50 <= TARGET_LIST_P50_MS,
      },
      { label: 'latency p99 (ms)', broker: broker.p99, baseline: baseline.p99 },
      ...cpuRow('server CPU per request (µs)', broker, baseline),
    ],
  );
}
