/**
 * Desktop presentation's cost, on a private session bus with the test notification server in this
 * process (its toasts time out at once, so the broker's queue keeps moving):
 *
 * - latency from the create's answer to the Notify call arriving on the bus, 300 sequential creates:
 *   p50 and p99, target p50 ≤ 10 ms;
 * - POST /v1/notifications throughput with wrk, presentation on (bus and server) against off (no bus),
 *   two brokers in the same run, slices ordered on, off, off, on: target ≥ 0.9× off.
 */
import { loadavg } from 'node:os';
import { createTempHome, startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { waitForLog } from '../test/support/broker-log.js';
import { startNotificationServer } from '../test/support/notification-server.js';
import { startPrivateBus } from '../test/support/session-bus.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';
import { wrkPost } from './support/wrk-rate.js';

const CONNECTIONS = 16;
const LATENCY_SAMPLES = 300;
const SLICE_SECONDS = 5;
const TARGET_P50_MS = 10;
const TARGET_THROUGHPUT_RATIO = 0.9;
const BODY = {
  title: 'Build finished',
  message: 'All 312 tests passed',
  agent: 'ci',
  project: 'notify',
  type: 'completed',
};

const wrk = (broker: BrokerProcess): Promise<number> =>
  wrkPost(
    `${broker.baseUrl}/v1/notifications`,
    { authorization: `Bearer ${broker.token}` },
    JSON.stringify(BODY),
    CONNECTIONS,
    SLICE_SECONDS,
  );

export async function runPresentationBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine to compare`,
  );
  const bus = await startPrivateBus();
  const arrivals = new Map<string, number>();
  const server = await startNotificationServer(bus.address, {
    expireAtOnce: true,
    onNotify: (call) => arrivals.set(call.summary, performance.now()),
  });
  const onHome = createTempHome();
  onHome.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  const on = await startBroker({
    home: onHome,
    config: { rateLimitPerSecond: 1_000_000_000, maxVisibleToasts: 20 },
  });
  const off = await startBroker({ config: { rateLimitPerSecond: 1_000_000_000 } });
  try {
    await waitForLog(onHome, 'toasts are on');
    const latencies: number[] = [];
    const fromSend: number[] = [];
    for (let index = 0; index < LATENCY_SAMPLES; index++) {
      const title = `latency ${index}`;
      const sent = performance.now();
      const response = await on.request('POST', '/v1/notifications', { ...BODY, title });
      await response.arrayBuffer();
      const answered = performance.now();
      await server.until(() => arrivals.has(title));
      // A call that beat the answer to this process counts as no delay at all.
      latencies.push(Math.max(0, arrivals.get(title)! - answered));
      fromSend.push(arrivals.get(title)! - sent);
    }
    latencies.sort((a, b) => a - b);
    fromSend.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);

    const onRates = [await wrk(on)];
    const offRates = [await wrk(off), await wrk(off)];
    onRates.push(await wrk(on));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const onRate = mean(onRates);
    const offRate = mean(offRates);

    // 0 means the call reached the bus before the answer reached this process: the presenter runs on
    // the commit, ahead of the HTTP reply.
    printTable('answer → Notify call on the bus (ms), 300 sequential creates', [
      { label: 'p50', broker: p50, target: `≤ ${TARGET_P50_MS} ms`, pass: p50 <= TARGET_P50_MS },
      { label: 'p99', broker: p99 },
      { label: 'p50 from the request sent', broker: percentile(fromSend, 0.5) },
      { label: 'p99 from the request sent', broker: percentile(fromSend, 0.99) },
    ]);
    printTable('POST /v1/notifications per second (wrk -t1 -c16), presentation on; baseline: off', [
      {
        label: 'creates/s',
        broker: onRate,
        baseline: offRate,
        target: `≥ ${TARGET_THROUGHPUT_RATIO}× off`,
        pass: onRate >= TARGET_THROUGHPUT_RATIO * offRate,
      },
    ]);
    console.log(`toasts shown during the run: ${server.calls.length}`);
  } finally {
    await on.stop();
    await off.stop();
    onHome.cleanup();
    off.home.cleanup();
    server.stop();
    await bus.stop();
  }
}
