/**
 * Sending phone pushes (docs/relay-protocol.md "Phone push"): the payload, headers, the durable queue's
 * retries and removals, a restart mid-queue, and the single-use answer tokens, against the real
 * notify-relay and the push service stand-in (which checks VAPID and decrypts on its own).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PushService, type PushSubscriptionJson, type ReceivedPush } from '../support/push-service.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { api, deliver, delivered, pairSender, setUpOperator, type WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { addDevice, assertRequestPush, devices, PUSH_ARGS } from './push-support.js';

let relay: RelayProcess;
let web: WebSession;
let service: PushService;
let credential: string;

before(async () => {
  service = await PushService.start();
  relay = await startRelay({ args: PUSH_ARGS });
  web = await setUpOperator(relay);
  credential = (await pairSender(relay, web)).credential;
});
after(async () => {
  await relay.cleanup();
  await service.stop();
});
afterEach(() => assert.deepEqual(service.refused, [], 'every push had a valid VAPID JWT and decrypted'));

let ids = 0;
const nextId = (): string => `n-push-${++ids}`;
let later = Date.parse('2026-11-25T18:00:00.000Z');
const nextTime = (): string => new Date((later += 1000)).toISOString();

/** The pushes a device took for one notification, in order. */
async function pushesOf(
  subscription: PushSubscriptionJson,
  id: string,
  count: number,
  what: string,
): Promise<ReceivedPush[]> {
  return waitFor(() => {
    const pushes = service.deliveredTo(subscription).filter((push) => push.payload['id'] === id);
    return pushes.length >= count && pushes;
  }, what);
}

async function removeAll(): Promise<void> {
  for (const device of await devices(web))
    await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${device.id}`);
}

function answerAt(push: ReceivedPush, action: string, token?: string) {
  const answer = push.payload['answer'] as { url: string; token: string };
  return api(relay, 'POST', new URL(answer.url).pathname, {
    body: { action, token: token ?? answer.token },
  });
}

describe('phone push: sending', () => {
  afterEach(removeAll);

  it('sends a permission request encrypted to each device: the payload, TTL, Urgency high and a Topic', async () => {
    const phone = await addDevice(web, service, 'Phone');
    const tablet = await addDevice(web, service, 'Tablet');
    const id = nextId();
    assert.equal((await deliver(relay, credential, id, delivered())).status, 201);
    const [push] = await pushesOf(phone.subscription, id, 1, 'the push at the phone');
    await pushesOf(tablet.subscription, id, 1, 'the push at the tablet');
    assertRequestPush(push, id, relay.url);
    const listed = await devices(web);
    assert.ok(listed.every((device) => device.last_delivery_at !== undefined));
  });

  it('cuts the body to keep the payload within 2 KB; an info notification is normal urgency with no answer', async () => {
    const { subscription } = await addDevice(web, service);
    const long = nextId();
    await deliver(relay, credential, long, delivered({ message: 'é'.repeat(4000) }));
    const [push] = await pushesOf(subscription, long, 1, 'the long push');
    assert.ok(push!.bytes <= 2048, `${push!.bytes} bytes`);
    assert.ok(push!.bytes > 1900, 'the body fills what is left');
    assert.match(push!.payload['body'] as string, /^é+…$/);
    const info = nextId();
    await deliver(relay, credential, info, delivered({ type: 'completed', priority: 'normal', actions: [] }));
    const [plain] = await pushesOf(subscription, info, 1, 'the info push');
    assert.equal(plain!.urgency, 'normal');
    assert.equal(plain!.payload['answer'], undefined);
  });

  it('shows the title only, or a generic line, as the person chose; a title-only route sends no body', async () => {
    const { subscription } = await addDevice(web, service);
    await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'title' });
    const titled = nextId();
    await deliver(relay, credential, titled, delivered());
    const [title] = await pushesOf(subscription, titled, 1, 'the title-only push');
    assert.deepEqual([title!.payload['title'], title!.payload['body']], ['Run this?', '']);
    await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'generic' });
    const generic = nextId();
    await deliver(relay, credential, generic, delivered());
    const [hidden] = await pushesOf(subscription, generic, 1, 'the generic push');
    assert.deepEqual([hidden!.payload['title'], hidden!.payload['body']], ['An agent needs you', '']);
    assert.equal(hidden!.payload['project'], undefined);
    assert.ok(hidden!.payload['answer'], 'the buttons still answer');
    await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'full' });
    const routeTitleOnly = nextId();
    await deliver(
      relay,
      credential,
      routeTitleOnly,
      delivered({ message: 'from claude-code', message_included: false }),
    );
    const [route] = await pushesOf(subscription, routeTitleOnly, 1, 'the title-only route push');
    assert.equal(route!.payload['body'], '');
  });

  it('pushes an update and the end of a notification under the same Topic', async () => {
    const { subscription } = await addDevice(web, service);
    const id = nextId();
    await deliver(relay, credential, id, delivered({ updated_at: nextTime() }));
    await pushesOf(subscription, id, 1, 'the first push');
    await deliver(relay, credential, id, delivered({ title: 'Run this now?', updated_at: nextTime() }));
    const [first, update] = await pushesOf(subscription, id, 2, 'the update push');
    assert.deepEqual([update!.payload['title'], update!.payload['revision']], ['Run this now?', 2]);
    const resolved = await api(relay, 'POST', `/v1/notifications/${id}/status`, {
      bearer: credential,
      body: { status: 'resolved' },
    });
    assert.equal(resolved.status, 200);
    const pushes = await pushesOf(subscription, id, 3, 'the closing push');
    const closing = pushes[2]!;
    assert.equal(closing.payload['status'], 'resolved');
    assert.deepEqual(closing.payload['actions'], []);
    assert.equal(closing.payload['answer'], undefined);
    assert.equal(new Set([first!.topic, update!.topic, closing.topic]).size, 1);
  });

  it('waits out 429 Retry-After and 503, then delivers', async () => {
    const { subscription } = await addDevice(web, service);
    service.answerNext(subscription, { status: 429, retryAfter: '1' }, { status: 503 });
    const id = nextId();
    await deliver(relay, credential, id, delivered());
    await pushesOf(subscription, id, 1, 'the push after 429 and 503');
    const tries = service.received.filter((push) => push.payload['id'] === id).map((push) => push.status);
    assert.deepEqual(tries, [429, 503, 201]);
  });

  it('removes a device the push service says is gone (410, 404)', async () => {
    for (const status of [410, 404]) {
      const { id: deviceId, subscription } = await addDevice(web, service);
      service.answerNext(subscription, { status });
      await deliver(relay, credential, nextId(), delivered());
      await waitFor(
        async () => !(await devices(web)).some((device) => device.id === deviceId),
        `the device removed after ${status}`,
      );
    }
  });

  it('resends a push shortened after 413', async () => {
    const { subscription } = await addDevice(web, service);
    service.answerNext(subscription, { status: 413 });
    const id = nextId();
    await deliver(relay, credential, id, delivered({ message: 'x'.repeat(1500) }));
    const [push] = await pushesOf(subscription, id, 1, 'the shortened push');
    assert.equal(push!.payload['body'], '');
    assert.equal(push!.payload['title'], 'Run this?');
    assert.ok(push!.payload['answer'], 'still answerable');
  });

  it('answers once with a push token; a used, stale or foreign token is refused', async () => {
    const { subscription } = await addDevice(web, service);
    const first = nextId();
    await deliver(relay, credential, first, delivered({ updated_at: nextTime() }));
    const [stalePush] = await pushesOf(subscription, first, 1, 'the first push');
    await deliver(
      relay,
      credential,
      first,
      delivered({ message: 'npm publish --force', updated_at: nextTime() }),
    );
    const [, currentPush] = await pushesOf(subscription, first, 2, 'the update push');

    const stale = await answerAt(stalePush!, 'allow');
    assert.deepEqual([stale.status, stale.body['error']], [409, 'conflict']);
    const other = nextId();
    await deliver(relay, credential, other, delivered());
    const [otherPush] = await pushesOf(subscription, other, 1, 'the other push');
    const foreign = await answerAt(
      currentPush!,
      'allow',
      (otherPush!.payload['answer'] as { token: string }).token,
    );
    assert.deepEqual([foreign.status, foreign.body['error']], [403, 'forbidden']);
    const made = await answerAt(currentPush!, 'allow', `nrt_${'A'.repeat(43)}`);
    assert.deepEqual([made.status, made.body['error']], [403, 'forbidden']);

    const answered = await answerAt(currentPush!, 'deny');
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.deepEqual(
      answered.body['answer'] && (answered.body['answer'] as { action: string }).action,
      'deny',
    );
    const again = await answerAt(currentPush!, 'allow');
    assert.deepEqual([again.status, again.body['error']], [409, 'conflict']);
    assert.match(again.body['error_description'] as string, /used already/);
    // The answer resolved it: the closing push follows.
    const pushes = await pushesOf(subscription, first, 3, 'the closing push after the answer');
    assert.equal(pushes[2]!.payload['status'], 'resolved');
  });

  it('sends a test push to one device on Send test', async () => {
    const { id, subscription } = await addDevice(web, service);
    const sent = await web.inbox('POST', `/v1/inbox/push/subscriptions/${id}/test`);
    assert.equal(sent.status, 202);
    const [test] = await pushesOf(subscription, 'notify-relay-test', 1, 'the test push');
    assert.equal(test!.payload['title'], 'Notify test');
  });
});

describe('phone push: a restart mid-queue', () => {
  // The stand-in trusts the key from before the restart: the push verifies only if the relay kept it.
  it('loses nothing: a push waiting on Retry-After goes out after the relay restarts, signed with the same VAPID key', async () => {
    const { subscription } = await addDevice(web, service);
    service.answerNext(subscription, { status: 503, retryAfter: '3600' });
    const id = nextId();
    await deliver(relay, credential, id, delivered());
    await waitFor(
      () => service.received.some((push) => push.payload['id'] === id && push.status === 503),
      'the first, refused try',
    );
    await relay.stop();
    const restarted = await startRelay({ args: PUSH_ARGS, dataDir: relay.dataDir });
    try {
      restarted.advance(2 * 3_600_000);
      const [push] = await pushesOf(subscription, id, 1, 'the push after the restart');
      assert.equal(push!.payload['title'], 'Run this?');
    } finally {
      await restarted.cleanup();
    }
  });
});
