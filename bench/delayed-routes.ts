/**
 * Routes that wait (issue 20): create throughput (wrk, POST /v1/notifications) with 3 enabled routes
 * that each wait an hour before sending, against the same broker build with no routes: target ≥ 0.8×.
 * Beside it, for reference, 3 routes that send at once (the outbox suite's case), measured in the
 * same run: on a busy shared machine the two ratios are comparable where the absolute ones are not.
 * Slices are interleaved; after each routed slice the work it queued is finished before the next
 * slice starts (waiting sends: moved from the intake into the outbox by one GET of the counts; sends
 * at once: delivered to a local receiver), so it never runs during another broker's slice.
 */
import { loadavg } from 'node:os';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { enabledRouteTo, OUTBOX_BROKER } from '../test/support/outbox-broker.js';
import { startReceiver } from '../test/support/receiver.js';
import { createSlice, type CreateSlice } from './support/create-slice.js';
import { awaitDrained } from './support/outbox-drain.js';
import { printTable } from './support/report.js';

const CONNECTIONS = 16;
const SLICE_SECONDS = 5;
const DELAY_SECONDS = 3600;
const BODY = JSON.stringify({
  title: 'Permission needed',
  message: 'claude-code wants to run: npm test -- --coverage',
  type: 'permission_required',
  priority: 'high',
  agent: 'claude-code',
  project: 'notify',
});

const mean = (slices: CreateSlice[], field: keyof CreateSlice) =>
  slices.reduce((sum, slice) => sum + slice[field], 0) / slices.length;

export async function runDelayedRoutesBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine if it was busy`,
  );
  const receiver = await startReceiver();
  const config = { rateLimitPerSecond: 1_000_000_000 };
  const brokers: BrokerProcess[] = [];
  try {
    const start = async () => {
      const broker = await startBroker({ script: OUTBOX_BROKER, config });
      brokers.push(broker);
      return broker;
    };
    const waiting = await start();
    const atOnce = await start();
    const none = await start();
    for (let i = 0; i < 3; i++) {
      await enabledRouteTo(waiting, receiver.url, { delaySeconds: DELAY_SECONDS });
      await enabledRouteTo(atOnce, receiver.url);
    }
    const post = async (broker: BrokerProcess): Promise<CreateSlice> => {
      const slice = await createSlice(broker, BODY, CONNECTIONS, SLICE_SECONDS);
      if (broker === atOnce) await awaitDrained(broker);
      else if (broker === waiting) await broker.request('GET', '/v1/outbox/counts');
      return slice;
    };
    for (const broker of [waiting, atOnce, none]) await post(broker);
    // Slices ordered A B C C B A, so a disturbance of the shared machine weighs on every side.
    const slices = new Map<BrokerProcess, CreateSlice[]>(brokers.map((broker) => [broker, []]));
    for (const broker of [waiting, atOnce, none, none, atOnce, waiting])
      slices.get(broker)!.push(await post(broker));
    const rate = (broker: BrokerProcess) => mean(slices.get(broker)!, 'rate');
    const cpu = (broker: BrokerProcess) => mean(slices.get(broker)!, 'cpuMicrosPerRequest');
    printTable('create throughput (req/s), 3 matching routes vs none', [
      {
        label: 'routes that wait an hour',
        broker: rate(waiting),
        baseline: rate(none),
        target: '≥ 0.80× baseline',
        pass: rate(waiting) >= 0.8 * rate(none),
      },
      { label: 'routes that send at once (reference)', broker: rate(atOnce), baseline: rate(none) },
    ]);
    if (Number.isFinite(cpu(none)))
      printTable('main-thread CPU per create (µs), 3 matching routes vs none (lower is better)', [
        { label: 'routes that wait an hour', broker: cpu(waiting), baseline: cpu(none) },
        { label: 'routes that send at once (reference)', broker: cpu(atOnce), baseline: cpu(none) },
      ]);
    const counts = (await (await waiting.request('GET', '/v1/outbox/counts')).json()) as Record<
      string,
      number
    >;
    console.log(
      `${counts['waiting']} sends wait for their routes' delay, ${counts['delivered']} were sent ` +
        `(the receiver got ${receiver.received.length}, all from the routes that send at once)`,
    );
  } finally {
    for (const broker of brokers) {
      await broker.stop();
      broker.home.cleanup();
    }
    await receiver.close();
  }
}
