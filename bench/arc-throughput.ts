import autocannon from 'autocannon';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';

/**
 * ARC 0.1 throughput beside native creation: each case on its own broker (temp HOME, rate limit out of
 * the way), 16 connections, 1 s warm-up then ~5 s measured. Target: ARC ≥ 0.8× native.
 */
const CONNECTIONS = 16;
const WARMUP_SECONDS = 1;
const MEASURE_SECONDS = 5;
const ROUNDS = 5;

interface Case {
  name: string;
  /** Runs once on the fresh broker before the load, e.g. to create the condition being updated. */
  prepare?: (broker: BrokerProcess) => Promise<void>;
  path: string;
  /** A new body per request. */
  body: () => string;
}

let sequence = 0;

function arcEvent(eventType: string, request: Record<string, unknown>): string {
  sequence++;
  return JSON.stringify({
    arc_version: '0.1',
    event_id: `bench-${process.pid}-${sequence}`,
    event_type: eventType,
    occurred_at: new Date().toISOString(),
    sender: { id: 'bench', name: 'ARC benchmark', instance_id: 'bench-1' },
    context: { session_id: 'bench-session', project: 'notify', cwd: '/tmp/notify', pid: process.pid },
    request,
  });
}

const CASES: Case[] = [
  {
    name: 'native POST /v1/notifications',
    path: '/v1/notifications',
    body: () =>
      JSON.stringify({
        title: 'Build finished',
        message: `All tests passed (${++sequence})`,
        type: 'completed',
        agent: 'bench',
        agentInstance: 'bench-1',
        project: 'notify',
        cwd: '/tmp/notify',
        pid: process.pid,
      }),
  },
  {
    name: 'ARC request.created (unkeyed)',
    path: '/v1/events',
    body: () =>
      arcEvent('request.created', { kind: 'completion', message: `All tests passed (${sequence})` }),
  },
  {
    name: 'ARC request.updated (keyed)',
    prepare: async (broker) => {
      const response = await broker.request(
        'POST',
        '/v1/events',
        arcEvent('request.created', { key: 'bench-build', kind: 'blocked', message: 'Waiting' }),
      );
      if (response.status !== 201) throw new Error(`could not create the condition: ${response.status}`);
    },
    path: '/v1/events',
    body: () =>
      arcEvent('request.updated', {
        key: 'bench-build',
        kind: 'blocked',
        message: `Still waiting (${sequence})`,
      }),
  },
];

async function load(broker: BrokerProcess, testCase: Case, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: broker.baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: testCase.path,
        headers: { authorization: `Bearer ${broker.token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: testCase.body() }),
      },
    ],
  });
}

interface Measured {
  name: string;
  perSecond: number;
  /** Median over rounds of this case's rate divided by native's rate in the same round. */
  ratio: number;
  p99: number;
  failures: number;
}

/**
 * One broker per case, all started up front. The measured time is split into rounds and the cases take
 * turns within each round, so load from other processes on the machine hits every case alike.
 */
async function measureAll(): Promise<Measured[]> {
  const brokers: BrokerProcess[] = [];
  try {
    for (const testCase of CASES) {
      const broker = await startBroker({ config: { rateLimitPerSecond: 10_000_000 } });
      brokers.push(broker);
      await testCase.prepare?.(broker);
      await load(broker, testCase, WARMUP_SECONDS);
    }
    const rounds = CASES.map(() => [] as autocannon.Result[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, testCase] of CASES.entries()) {
        rounds[index]!.push(await load(brokers[index]!, testCase, MEASURE_SECONDS / ROUNDS));
      }
    }
    const rate = (result: autocannon.Result) => result['2xx'] / result.duration;
    return CASES.map((testCase, index) => {
      const results = rounds[index]!;
      const seconds = results.reduce((sum, result) => sum + result.duration, 0);
      return {
        name: testCase.name,
        perSecond: results.reduce((sum, result) => sum + result['2xx'], 0) / seconds,
        ratio: median(results.map((result, round) => rate(result) / rate(rounds[0]![round]!))),
        p99: median(results.map((result) => result.latency.p99)),
        failures: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
      };
    });
  } finally {
    for (const broker of brokers) {
      await broker.stop();
      broker.home.cleanup();
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function runArcBench(): Promise<void> {
  const rows = await measureAll();
  console.log(
    `${CONNECTIONS} connections, ${MEASURE_SECONDS} s per case in ${ROUNDS} interleaved rounds, one broker per case`,
  );
  console.log(
    `${'case'.padEnd(34)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'× native'.padStart(10)}  failures`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(34)}${row.perSecond.toFixed(0).padStart(10)}${row.p99.toFixed(1).padStart(9)}${row.ratio
        .toFixed(2)
        .padStart(10)}  ${row.failures}`,
    );
  }
  const slowest = Math.min(...rows.slice(1).map((row) => row.ratio));
  console.log(
    `target ARC ≥ 0.80× native: ${slowest >= 0.8 ? 'met' : 'NOT met'} (lowest ${slowest.toFixed(2)}×)`,
  );
}
