/**
 * Routes that wait (issue 20): create throughput (wrk, POST /v1/notifications) with 3 enabled routes
 * that each wait an hour before sending, against the same broker build with no routes: target ≥ 0.8×.
 * Every create queues three waiting sends (nothing is sent within the bench); after each routed slice
 * the bench moves the broker's intake into the outbox (one GET of the counts) so that work never runs
 * during a baseline slice, and prints how many sends wait.
 */
import { loadavg } from 'node:os';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { enabledRouteTo, OUTBOX_BROKER } from '../test/support/outbox-broker.js';
import { startReceiver } from '../test/support/receiver.js';
import { mainThreadCpuSeconds } from './outbox-throughput.js';
import { printTable } from './support/report.js';
import { wrkPost } from './support/wrk-rate.js';

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

interface Slice {
  rate: number;
  cpuMicrosPerRequest: number;
}

export async function runDelayedRoutesBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine if it was busy`,
  );
  const receiver = await startReceiver();
  const config = { rateLimitPerSecond: 1_000_000_000 };
  let delayed: BrokerProcess | undefined;
  let without: BrokerProcess | undefined;
  try {
    delayed = await startBroker({ script: OUTBOX_BROKER, config });
    without = await startBroker({ script: OUTBOX_BROKER, config });
    for (let i = 0; i < 3; i++) await enabledRouteTo(delayed, receiver.url, { delaySeconds: DELAY_SECONDS });
    const post = async (broker: BrokerProcess): Promise<Slice> => {
      const cpuBefore = mainThreadCpuSeconds(broker);
      const rate = await wrkPost(
        `${broker.baseUrl}/v1/notifications`,
        { authorization: `Bearer ${broker.token}` },
        BODY,
        CONNECTIONS,
        SLICE_SECONDS,
      );
      const cpu = mainThreadCpuSeconds(broker) - cpuBefore;
      return { rate, cpuMicrosPerRequest: (cpu * 1e6) / (rate * SLICE_SECONDS) };
    };
    let waiting = 0;
    const postDelayed = async () => {
      const slice = await post(delayed!);
      const counts = (await (await delayed!.request('GET', '/v1/outbox/counts')).json()) as Record<
        string,
        number
      >;
      waiting = counts['waiting']!;
      return slice;
    };
    await postDelayed();
    await post(without);
    // Slices ordered A B B A, so a disturbance of the shared machine weighs on both sides.
    const a1 = await postDelayed();
    const b1 = await post(without);
    const b2 = await post(without);
    const a2 = await postDelayed();
    const routed = (a1.rate + a2.rate) / 2;
    const plain = (b1.rate + b2.rate) / 2;
    printTable('create throughput (req/s), 3 matching routes that wait an hour vs none', [
      {
        label: 'POST /v1/notifications',
        broker: routed,
        baseline: plain,
        target: '≥ 0.80× baseline',
        pass: routed >= 0.8 * plain,
      },
    ]);
    if (Number.isFinite(a1.cpuMicrosPerRequest))
      printTable('main-thread CPU per create (µs), 3 routes that wait vs none (lower is better)', [
        {
          label: 'POST /v1/notifications',
          broker: (a1.cpuMicrosPerRequest + a2.cpuMicrosPerRequest) / 2,
          baseline: (b1.cpuMicrosPerRequest + b2.cpuMicrosPerRequest) / 2,
        },
      ]);
    console.log(`${waiting} sends wait for their routes' delay; none was sent`);
    if (receiver.received.length > 0)
      console.log(`UNEXPECTED: the receiver got ${receiver.received.length} request(s) before the delay`);
  } finally {
    await delayed?.stop();
    await without?.stop();
    delayed?.home.cleanup();
    without?.home.cleanup();
    await receiver.close();
  }
}
