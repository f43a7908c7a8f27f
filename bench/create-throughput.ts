/**
 * `npm run bench -- create`: what a create costs, against both baselines in the same run.
 *
 * - native POST /v1/notifications (the broker bench's body) and ARC POST /v1/events (request.created,
 *   unkeyed, a new event_id per request) on notifyd, each on a broker of its own;
 * - the group-commit limit: bench/baseline-server.js --group-commit, the same insert committed per
 *   event-loop turn as the broker's WriteQueue does, the most this durability allows;
 * - the one-commit-per-request server: bench/baseline-server.js.
 *
 * wrk (C, one thread), 16 connections. The time is cut into rounds of short slices, every server once
 * per round in an order that reverses each round, and a ratio is taken within each round, so a build
 * another program starts on the shared machine weighs on both sides of it; the medians are printed.
 * Target: both creates ≥ 1.0× the group-commit limit with p99 ≤ its p99. Server CPU per create is
 * printed beside the rates, with the limit's divided by notifyd's: that ratio moves far less than the
 * rates when the machine is busy. The process exits non-zero when a create's median rate ratio and its
 * CPU ratio both fall below FLOOR.
 *
 * Environment: CREATE_BENCH_ROUNDS and CREATE_BENCH_SLICE_SECONDS shorten or lengthen the run (CI runs
 * a short one); CREATE_BENCH_NOTIFYD names another notifyd entry point (e.g. dist/src/cli/notifyd.js of
 * an older commit's build) to measure instead of this build's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { CREATE_BODY } from './broker-throughput.js';
import { startBaseline, type BaselineProcess } from './support/baseline-process.js';
import { figuresOf, type Figures, type LoadOptions, type Sample } from './support/load.js';
import { brokerTarget, jsonPosts } from './support/load-target.js';
import { loadWithWrk } from './support/wrk.js';

const CONNECTIONS = 16;
const ROUNDS = Number(process.env['CREATE_BENCH_ROUNDS'] ?? 8);
const SLICE_SECONDS = Number(process.env['CREATE_BENCH_SLICE_SECONDS'] ?? 2);
const WARM_UP_SECONDS = 2;
const TARGET_RATIO = 1.0;
/**
 * Below this, in both the median rate ratio and the CPU ratio to the group-commit limit, the bench fails.
 * Set from the spread measured for issue 38 on the 2-core machine CI runs on, shared with other builds
 * (load average 7-15): ten runs (five before and five after the second round of work) gave rate ratios
 * of 0.24-0.97× (native) and 0.35-0.62× (ARC), while the limit's CPU per create over notifyd's stayed
 * within 0.32-0.63×. A create that costs twice what it does now falls under 0.2 in both; noise that
 * takes the cores during notifyd's slices only moves the rate.
 */
export const FLOOR = 0.2;
export const UNIQUE_POST_SCRIPT = fileURLToPath(
  new URL('../../bench/support/wrk-unique-post.lua', import.meta.url),
);

/** An ARC request.created without a key: each event_id (filled in by the Lua script) is a new create. */
export const ARC_BODY = JSON.stringify({
  arc_version: '0.1',
  event_id: 'bench-__UNIQUE__',
  event_type: 'request.created',
  occurred_at: '2026-11-28T12:00:00.000Z',
  sender: { id: 'bench', name: 'ARC benchmark', instance_id: 'bench-1' },
  context: { session_id: 'bench-session', project: 'notify', cwd: '/home/user/projects/notify', pid: 41234 },
  request: {
    kind: 'completion',
    message: 'The release build of notify finished in 42 s; 312 tests passed, 0 failed.',
  },
});

interface Server {
  name: string;
  load: LoadOptions;
  samples: Sample[];
}

export async function runCreateBench(): Promise<void> {
  const load = loadavg().map((value) => value.toFixed(2));
  console.log(`machine load average ${load.join(' ')} (1, 5, 15 min) at start`);
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-create-'));
  const brokers: BrokerProcess[] = [];
  const baselines: BaselineProcess[] = [];
  const script = process.env['CREATE_BENCH_NOTIFYD'];
  try {
    const startOne = async () => {
      const broker = await startBroker({
        config: { rateLimitPerSecond: 1_000_000_000 },
        ...(script !== undefined && { script }),
      });
      brokers.push(broker);
      return broker;
    };
    const native = await startOne();
    const arc = await startOne();
    const limit = await startBaseline(join(dir, 'group.db'), undefined, ['--group-commit']);
    baselines.push(limit);
    const single = await startBaseline(join(dir, 'single.db'));
    baselines.push(single);
    const baselineLoad = (baseline: BaselineProcess) =>
      jsonPosts(
        { url: `http://127.0.0.1:${baseline.port}/v1/notifications`, headers: {}, pid: baseline.pid },
        CREATE_BODY,
        CONNECTIONS,
      );
    const arcTarget = brokerTarget(arc, '/v1/events');
    const servers: Server[] = [
      {
        name: 'notifyd POST /v1/notifications',
        load: jsonPosts(brokerTarget(native, '/v1/notifications'), CREATE_BODY, CONNECTIONS),
        samples: [],
      },
      {
        name: 'notifyd ARC POST /v1/events',
        load: {
          ...jsonPosts(arcTarget, ARC_BODY, CONNECTIONS),
          url: arcTarget.url,
          wrk: {
            script: UNIQUE_POST_SCRIPT,
            env: { WRK_PATH: '/v1/events', WRK_AUTHORIZATION: arcTarget.headers['authorization']! },
          },
        },
        samples: [],
      },
      { name: 'group-commit limit', load: baselineLoad(limit), samples: [] },
      { name: 'one commit per request', load: baselineLoad(single), samples: [] },
    ];
    process.stdout.write(
      `warm-up ${WARM_UP_SECONDS} s each, then ${ROUNDS} rounds of ${SLICE_SECONDS} s per server...`,
    );
    for (const server of servers) await loadWithWrk(server.load, WARM_UP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) server.samples.push(await loadWithWrk(server.load, SLICE_SECONDS));
    }
    console.log(' done');
    report(servers);
  } finally {
    for (const baseline of baselines) await baseline.stop();
    for (const broker of brokers) {
      await broker.stop();
      broker.home.cleanup();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const rateOf = (sample: Sample) => sample.requests / sample.seconds;

/** Median over rounds of a's rate divided by b's in the same round. */
function medianRatio(a: Server, b: Server): number {
  return median(a.samples.map((sample, round) => rateOf(sample) / rateOf(b.samples[round]!)));
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function report(servers: Server[]): void {
  const [native, arc, limit, single] = servers as [Server, Server, Server, Server];
  const figures = new Map<Server, Figures>(servers.map((server) => [server, figuresOf(server.samples)]));
  const cpu = (server: Server) => figures.get(server)!.cpuMicrosPerRequest?.toFixed(0) ?? '-';
  console.log(
    `${'server'.padEnd(32)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/req'.padStart(12)}`,
  );
  for (const server of servers) {
    const { requestsPerSecond, p50, p99 } = figures.get(server)!;
    console.log(
      `${server.name.padEnd(32)}${requestsPerSecond.toFixed(0).padStart(8)}${p50.toFixed(2).padStart(8)}${p99
        .toFixed(2)
        .padStart(8)}${cpu(server).padStart(12)}`,
    );
  }
  let failed = false;
  for (const create of [native, arc]) {
    const ratio = medianRatio(create, limit);
    const p99 = figures.get(create)!.p99;
    const limitP99 = figures.get(limit)!.p99;
    const met = ratio >= TARGET_RATIO && p99 <= limitP99;
    const cpuRatio = figures.get(limit)!.cpuMicrosPerRequest! / figures.get(create)!.cpuMicrosPerRequest!;
    console.log(
      `${create.name}: ${ratio.toFixed(2)}× the group-commit limit, ${medianRatio(create, single).toFixed(2)}× one commit per request; p99 ${p99.toFixed(2)} ms vs ${limitP99.toFixed(2)} ms; target ≥ ${TARGET_RATIO.toFixed(2)}× with p99 ≤ the limit's: ${met ? 'met' : 'NOT met'}; CPU per create: the limit's is ${cpuRatio.toFixed(2)}× this one's`,
    );
    // Both figures below the floor: a rate ratio alone dips there when another program takes the cores
    // during this server's slices, while its CPU per create stays put. Where CPU time cannot be read
    // (not Linux) the rate alone decides.
    if (ratio < FLOOR && !(cpuRatio >= FLOOR)) {
      console.log(
        `FAIL: ${create.name} is below the floor of ${FLOOR.toFixed(2)}× the group-commit limit, in rate and in CPU per create`,
      );
      failed = true;
    }
  }
  console.log(`machine load average ${loadavg()[0]!.toFixed(2)} (1 min) at the end`);
  if (failed) process.exitCode = 1;
}
