/**
 * Phone push: from the moment notifyd answered a create to the moment the push request for it arrived
 * at the push service stand-in (decrypted there, its VAPID JWT checked), with the real notifyd paired
 * with the real notify-relay; the baseline is the create's own answer time in the same run. Then
 * fan-out: one notification to 1,000 devices of one person, pushes a second until the last arrived,
 * beside the same number of bare POSTs of the same size to the stand-in at the relay's concurrency.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { request } from 'undici';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { PushService } from '../test/support/push-service.js';
import { startRelay } from '../test/support/relay-process.js';
import { deliver, delivered, pairSender, setUpOperator } from '../test/support/relay-web.js';
import { addDevice, PUSH_ARGS } from '../test/relay/push-support.js';
import { pairAndRoute } from './relay-inbox-live.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';

const RUNS = 200;
const GAP_MS = 10;
const DEVICES = 1000;
/** The relay's own number of pushes in flight (src/relay-server/push-sender.ts). */
const CONCURRENCY = 64;

export async function runRelayPushBench(): Promise<void> {
  const service = await PushService.start();
  const relay = await startRelay({ args: [...PUSH_ARGS, '--delivery-rate', '100000'] });
  let broker: BrokerProcess | undefined;
  try {
    broker = await startBroker();
    const web = await setUpOperator(relay);
    await pairAndRoute(broker, relay, web);
    const { id } = await addDevice(web, service, 'Bench phone');
    const lags: number[] = [];
    const answers: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      const title = `Push ${run}`;
      const sent = performance.now();
      await (await broker.request('POST', '/v1/notifications', { title, message: 'lag' })).json();
      const answeredAt = performance.now();
      const arrived = await arrival(service, (push) => push.payload['title'] === title);
      // The first (cold) run warms up the paths and is not counted.
      if (run >= 0) {
        lags.push(arrived - answeredAt);
        answers.push(answeredAt - sent);
      }
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    printTable(
      `relay push: create answered → the push request at the push service (ms), ${RUNS} runs, vs the create's answer`,
      [
        {
          label: 'p50',
          broker: percentile(lags, 0.5),
          baseline: percentile(answers, 0.5),
          target: '≤ 50 ms',
          pass: percentile(lags, 0.5) <= 50,
        },
        { label: 'p99', broker: percentile(lags, 0.99), baseline: percentile(answers, 0.99) },
      ],
    );
    await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`);

    // 1,000 devices of one person, written into relay.db beside the running relay (the inbox API
    // allows 20 a person; this measures the sender, not the limit).
    const db = new Database(join(relay.dataDir, 'relay.db'));
    db.pragma('busy_timeout = 5000');
    const userId = (db.prepare('SELECT id FROM users LIMIT 1').get() as { id: string }).id;
    const insert = db.prepare(
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name, origin, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let index = 0; index < DEVICES; index++) {
        const device = service.subscribe();
        insert.run(
          `d_bench${index}`,
          userId,
          device.endpoint,
          device.keys.p256dh,
          device.keys.auth,
          `Bench ${index}`,
          relay.url,
          Date.now(),
        );
      }
    })();
    db.close();
    const { credential } = await pairSender(relay, web, 'bench-laptop');
    const before = service.received.length;
    const started = performance.now();
    await deliver(relay, credential, 'fan-out', delivered({ title: 'Fan out', message: 'x'.repeat(1500) }));
    await arrival(service, () => service.received.length - before >= DEVICES, 120_000);
    const lastAt = Math.max(...service.received.slice(before).map((push) => push.at));
    const fanOutSeconds = (lastAt - started) / 1000;
    const pushSize = service.received.at(-1)!.bytes;

    const bareStarted = performance.now();
    let next = 0;
    const body = Buffer.alloc(pushSize + 103);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < DEVICES) {
          const response = await request(`${service.origin}/push/not-a-subscription`, {
            method: 'POST',
            body,
          });
          await response.body.dump();
        }
      }),
    );
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    printTable(
      `relay push fan-out: one notification to ${DEVICES} devices (pushes a second), vs bare POSTs of that size`,
      [{ label: 'pushes/s', broker: DEVICES / fanOutSeconds, baseline: DEVICES / bareSeconds }],
    );
    if (service.refused.length > 0) throw new Error(`the stand-in refused pushes: ${service.refused[0]}`);
  } finally {
    await broker?.stop();
    broker?.home.cleanup();
    await relay.cleanup();
    await service.stop();
  }
}

/** performance.now() of the first push that matches, waiting for it (10 s unless told). */
async function arrival(
  service: PushService,
  matches: (push: PushService['received'][number]) => boolean,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = service.received.find(matches);
    if (found) return found.at;
    if (performance.now() > deadline) throw new Error('the push did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
