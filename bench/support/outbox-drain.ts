import type { BrokerProcess } from '../../test/support/broker-process.js';

/** The deliveries a broker finished while the bench waited for its outbox to empty. */
export interface Backlog {
  items: number;
  seconds: number;
}

/** Waits until the broker has no delivery pending or in flight; how many it finished meanwhile. */
export async function awaitDrained(broker: BrokerProcess): Promise<Backlog> {
  const counts = async () =>
    (await (await broker.request('GET', '/v1/outbox/counts')).json()) as Record<string, number>;
  const started = performance.now();
  const before = (await counts())['delivered']!;
  for (;;) {
    const now = await counts();
    if (now['pending'] === 0 && now['in_flight'] === 0)
      return { items: now['delivered']! - before, seconds: (performance.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
