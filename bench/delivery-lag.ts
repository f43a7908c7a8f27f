/**
 * Delivery lag at steady rates: how long after its create was answered each of a notification's three
 * deliveries reaches a local receiver, while creates keep arriving at a fixed rate (3 matching routes).
 * The throughput bench floods the API, and the dispatcher then yields to it; this one shows that at
 * the rates people and their agents produce, deliveries keep up instead of waiting for a quiet moment.
 * Baseline: the create's own answer time in the same run. Target: p99 lag ≤ 1 s.
 */
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { enabledRouteTo, OUTBOX_BROKER } from '../test/support/outbox-broker.js';
import { startReceiver } from '../test/support/receiver.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';

const RATES = [100, 300];
const SECONDS = 5;
const ROUTES = 3;
const LAG_TARGET_MS = 1_000;

export async function runDeliveryLagBench(): Promise<void> {
  const receiver = await startReceiver();
  let broker: BrokerProcess | undefined;
  try {
    broker = await startBroker({ script: OUTBOX_BROKER, config: { rateLimitPerSecond: 1_000_000_000 } });
    for (let i = 0; i < ROUTES; i++) await enabledRouteTo(broker, receiver.url);
    const rows = [];
    for (const rate of RATES) {
      receiver.received.length = 0;
      const { answeredAt, answerMs } = await postAtRate(broker, rate);
      const expected = answeredAt.size * ROUTES;
      const deadline = Date.now() + 60_000;
      while (receiver.received.length < expected && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const lags = receiver.received
        .map((request) => {
          const id = (request.body['notification'] as { id?: string } | undefined)?.id;
          const answered = id === undefined ? undefined : answeredAt.get(id);
          return answered === undefined ? undefined : request.at - answered;
        })
        .filter((lag): lag is number => lag !== undefined);
      const missing = expected - lags.length;
      if (missing > 0)
        console.log(`${rate}/s: ${missing} of ${expected} deliveries did not arrive within 60 s`);
      for (const [name, q] of [
        ['p50', 0.5],
        ['p99', 0.99],
      ] as const) {
        const lag = missing > 0 ? Number.POSITIVE_INFINITY : percentile(lags, q);
        rows.push({
          label: `${rate} creates/s, ${name}`,
          broker: lag,
          baseline: percentile(answerMs, q),
          ...(name === 'p99' && { target: `≤ ${LAG_TARGET_MS} ms`, pass: lag <= LAG_TARGET_MS }),
        });
      }
    }
    printTable(
      `delivery lag (ms) after the create's answer, ${ROUTES} routes, vs the create's own answer time`,
      rows,
    );
  } finally {
    await broker?.stop();
    broker?.home.cleanup();
    await receiver.close();
  }
}

/** Creates at a fixed rate for SECONDS; when each was answered (by id) and how long each answer took. */
async function postAtRate(
  broker: BrokerProcess,
  rate: number,
): Promise<{ answeredAt: Map<string, number>; answerMs: number[] }> {
  const answeredAt = new Map<string, number>();
  const answerMs: number[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const total = rate * SECONDS;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(
      broker
        .request('POST', '/v1/notifications', { title: `Lag ${i}`, message: 'steady rate', priority: 'high' })
        .then(async (response) => {
          const { id } = (await response.json()) as { id: string };
          answeredAt.set(id, Date.now());
          answerMs.push(performance.now() - sent);
        }),
    );
  }
  await Promise.all(pending);
  return { answeredAt, answerMs };
}
