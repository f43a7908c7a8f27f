/**
 * Shared by the phone push tests of the in-process relay (push-routes.test.ts, push-sending.test.ts).
 * Phone push on the relay (docs/relay-protocol.md "Phone push") as its people notice it: devices that
 * belong to one account, pushes encrypted to the device's own keys and signed with the relay's VAPID
 * key, the durable queue's retries, back-off and removals, and the answer a push carries. The relay's
 * server and push sender run in this process (in-process-relay.ts); the push service is the stand-in
 * of test/support/push-service.ts, which checks the VAPID JWT and decrypts each push with node:crypto.
 */
import assert from 'node:assert/strict';
import { PushService, type PushSubscriptionJson, type ReceivedPush } from '../support/push-service.js';
import { deliver, delivered, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { addDevice as addDeviceAt, devices, type DeviceView } from '../relay/push-support.js';
import { join } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

export const CONTACT = 'mailto:ops@example.org';
export const HOUR = 3_600_000;

/**
 * How long a test waits for a push on loopback: it lands in milliseconds, so a broken build fails
 * quickly (Stryker runs this file once a mutant).
 */
const WAIT_MS = 4000;

/** waitFor, with the loopback push's shorter wait. */
export const waitForPush = <T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
): Promise<T> => waitFor(probe, what, WAIT_MS);

export let relay: InProcessRelay;
export let service: PushService;
export let ada: WebSession;
export let bob: WebSession;
export let adaSender: string;
export let bobSender: string;

/** The relay with phone push on, the push service, two accounts (ada, bob) and a paired sender each. */
export function startPushWorld(): Promise<void> {
  return startPushWorldWith({});
}

/** The same, with the in-process relay's options (a clock that stands still). */
export async function startPushWorldWith(options: { stillClock?: boolean }): Promise<void> {
  service = await PushService.start();
  relay = await startInProcessRelay({ pushContact: CONTACT, ...options });
  ada = await setUpOperator(relay);
  bob = await join(relay, ada, { username: 'bob', password: 'another horse battery' });
  adaSender = (await pairSender(relay, ada, 'ada-box')).credential;
  bobSender = (await pairSender(relay, bob, 'bob-box')).credential;
  const key = await ada.inbox('GET', '/v1/inbox/push/key');
  service.trust(key.body['publicKey'] as string);
}

export async function stopPushWorld(): Promise<void> {
  await relay.cleanup();
  await service.stop();
}

/** Every push had a valid VAPID JWT and decrypted with its subscription's keys. */
export function noRefusedPush(): void {
  assert.deepEqual(service.refused, [], 'every push had a valid VAPID JWT and decrypted');
}

/** Moves the relay's clock and wakes its push sender, as a newly queued push would. */
export function later(ms: number): void {
  relay.advance(ms);
  relay.context.hub.emitPushQueued();
}

export { devices, type DeviceView } from '../relay/push-support.js';

/** A new device of this person, its subscription at the push service stand-in. */
export function addDevice(
  web: WebSession,
  name = 'Pixel 9',
): Promise<{ id: string; subscription: PushSubscriptionJson }> {
  return addDeviceAt(web, service, name);
}

export async function removeAll(): Promise<void> {
  for (const web of [ada, bob])
    for (const device of await devices(web))
      await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${device.id}`);
}

let ids = 0;
const nextId = (): string => `n-unit-push-${++ids}`;

/** A notification sent by a paired sender, accepted by the relay. */
export async function notify(credential: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const id = nextId();
  const sent = await deliver(relay, credential, id, delivered(overrides));
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  return id;
}

/** The sender delivers a new version of a notification (a later updated_at). */
export async function redeliver(id: string, overrides: Record<string, unknown>): Promise<void> {
  const sent = await deliver(relay, adaSender, id, delivered(overrides));
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
}

/** Every try the push service saw of one notification at one device, with what it answered. */
export const triesOf = (subscription: PushSubscriptionJson, id: string): ReceivedPush[] =>
  service.received.filter(
    (push) => push.subscription === subscription.endpoint.split('/').pop() && push.payload['id'] === id,
  );

export async function tries(
  subscription: PushSubscriptionJson,
  id: string,
  count: number,
): Promise<ReceivedPush[]> {
  return waitForPush(() => {
    const seen = triesOf(subscription, id);
    return seen.length >= count && seen;
  }, `${count} tries of ${id}`);
}

export async function device(web: WebSession, id: string): Promise<DeviceView | undefined> {
  return (await devices(web)).find((each) => each.id === id);
}

/** The device's queued pushes, as the relay keeps them (a restart loses none). */
export async function queued(
  deviceId: string,
): Promise<Array<{ attempts: number; next_attempt_at: number }>> {
  return (await relay.store.db.all(
    'SELECT attempts, next_attempt_at FROM push_queue WHERE subscription_id = ? ORDER BY id',
    [deviceId],
  )) as unknown as Array<{ attempts: number; next_attempt_at: number }>;
}

/** The failure the device shows once the push service refused a try, and the queue's next try of it. */
export async function refusedTry(
  web: WebSession,
  deviceId: string,
  failure: string,
  attempts: number,
  /** When the try before failed: the failure shown must be a later one. */
  since = 0,
): Promise<{ failedAt: number; nextAt: number }> {
  const shown = await waitForPush(async () => {
    const found = await device(web, deviceId);
    const [row] = await queued(deviceId);
    return (
      found?.last_failure === failure &&
      Date.parse(found.last_failure_at!) > since &&
      row?.attempts === attempts && { found, row }
    );
  }, `the device showing "${failure}" after try ${attempts}`);
  return { failedAt: Date.parse(shown.found.last_failure_at!), nextAt: shown.row.next_attempt_at };
}
