/**
 * Desktop presentation's cost, on a private session bus with the test notification server in this
 * process (its toasts time out at once, so the broker's queue keeps moving):
 *
 * - latency from the create's answer to the Notify call arriving on the bus, 300 sequential creates:
 *   p50 and p99, target p50 ≤ 10 ms;
 * - POST /v1/notifications throughput with wrk, presentation on (bus and server) against off (no bus),
 *   two brokers in the same run, slices ordered on, off, off, on: target ≥ 0.9× off.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTempHome, startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { waitForLog } from '../test/support/broker-log.js';
import { startNotificationServer } from '../test/support/notification-server.js';
import { startPrivateBus } from '../test/support/session-bus.js';
import { printTable } from './support/report.js';

const run = promisify(execFile);
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function wrk(broker: BrokerProcess, script: string): Promise<number> {
  const { stdout } = await run('wrk', [
    '-t2',
    '-c16',
    `-d${SLICE_SECONDS}s`,
    '-s',
    script,
    `${broker.baseUrl}/v1/notifications`,
  ]);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!match) throw new Error(`wrk printed no rate:\n${stdout}`);
  if (/Non-2xx/.test(stdout)) throw new Error(`wrk saw failed requests:\n${stdout}`);
  return Number(match[1]);
}

function wrkScript(dir: string, broker: BrokerProcess): string {
  const file = join(dir, `post-${broker.port}.lua`);
  writeFileSync(
    file,
    [
      'wrk.method = "POST"',
      `wrk.body = ${JSON.stringify(JSON.stringify(BODY))}`,
      'wrk.headers["Content-Type"] = "application/json"',
      `wrk.headers["Authorization"] = "Bearer ${broker.token}"`,
    ].join('\n'),
  );
  return file;
}

export async function runPresentationBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine to compare`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-presentation-'));
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

    const onScript = wrkScript(dir, on);
    const offScript = wrkScript(dir, off);
    const onRates = [await wrk(on, onScript)];
    const offRates = [await wrk(off, offScript), await wrk(off, offScript)];
    onRates.push(await wrk(on, onScript));
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
    printTable('POST /v1/notifications per second (wrk -t2 -c16), presentation on; baseline: off', [
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
    rmSync(dir, { recursive: true, force: true });
  }
}
