/**
 * Relay delivery lag: from the moment notifyd answered a create to the moment the relay received the
 * notification's PUT, one notification at a time, through the relay provider of a profile made by the
 * real `notify relay pair` against a local relay server that speaks the protocol (test/support). The
 * baseline is the create's own answer time in the same run. Target: p99 ≤ 1 s, as for every delivery.
 */
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { runNotify } from '../test/support/notify-cli.js';
import { startTestRelay, type TestRelay } from '../test/support/test-relay.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';

const RUNS = 200;
const GAP_MS = 10;
const LAG_TARGET_MS = 1_000;

export async function runRelayDeliveryBench(): Promise<void> {
  const relay = await startTestRelay();
  let broker: BrokerProcess | undefined;
  try {
    broker = await startBroker();
    await pairAndRoute(broker, relay);
    // The first delivery also starts the delivery thread and loads undici there: shown on its own row.
    const first = await deliverOne(broker, relay, 'first');
    const lags: number[] = [];
    const answers: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { lag, answerMs } = await deliverOne(broker, relay, String(run));
      lags.push(lag);
      answers.push(answerMs);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    printTable(
      `relay delivery: create answered → relay received the PUT (ms), ${RUNS} runs, vs the create's answer`,
      [
        { label: 'first (cold thread)', broker: first.lag, baseline: first.answerMs },
        { label: 'p50', broker: percentile(lags, 0.5), baseline: percentile(answers, 0.5) },
        {
          label: 'p99',
          broker: percentile(lags, 0.99),
          baseline: percentile(answers, 0.99),
          target: `≤ ${LAG_TARGET_MS} ms`,
          pass: percentile(lags, 0.99) <= LAG_TARGET_MS,
        },
      ],
    );
  } finally {
    await broker?.stop();
    broker?.home.cleanup();
    await relay.close();
  }
}

/** One create, then a wait for its PUT on the relay: the lag from the create's answer, and the answer's time. */
async function deliverOne(
  broker: BrokerProcess,
  relay: TestRelay,
  label: string,
): Promise<{ lag: number; answerMs: number }> {
  const sent = performance.now();
  const response = await broker.request('POST', '/v1/notifications', {
    title: `Relay ${label}`,
    message: 'lag',
  });
  const { id } = (await response.json()) as { id: string };
  const answeredAt = Date.now();
  const answerMs = performance.now() - sent;
  const path = `/v1/notifications/${id}`;
  const deadline = Date.now() + 10_000;
  let received: number | undefined;
  while (received === undefined && Date.now() < deadline) {
    received = relay.calls.find((call) => call.method === 'PUT' && call.path === path)?.at;
    if (received === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { lag: received === undefined ? Number.POSITIVE_INFINITY : received - answeredAt, answerMs };
}

async function pairAndRoute(broker: BrokerProcess, relay: TestRelay): Promise<void> {
  const paired = await runNotify(['relay', 'pair', '--url', relay.url, '--allow-private', '--json'], {
    env: broker.home.env,
  });
  if (paired.code !== 0) throw new Error(`notify relay pair failed: ${paired.stderr}`);
  const saved = JSON.parse(paired.stdout.trim().split('\n').at(-1)!) as { profile: { id: string } };
  await broker.request('POST', `/v1/providers/${saved.profile.id}/enable`);
  const route = (await (
    await broker.request('POST', '/v1/routes', { providerId: saved.profile.id })
  ).json()) as {
    id: string;
  };
  await broker.request('POST', `/v1/routes/${route.id}/enable`);
}
