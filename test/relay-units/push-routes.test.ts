/**
 * Phone push on the relay (docs/relay-protocol.md "Phone push") as its people notice it: devices that
 * belong to one account, pushes encrypted to the device's own keys and signed with the relay's VAPID
 * key, the durable queue's retries, back-off and removals, and the answer a push carries. The relay's
 * server and push sender run in this process (in-process-relay.ts); the push service is the stand-in
 * of test/support/push-service.ts, which checks the VAPID JWT and decrypts each push with node:crypto.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PushService, type PushSubscriptionJson, type ReceivedPush } from '../support/push-service.js';
import { api, deliver, delivered, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { join } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const CONTACT = 'mailto:ops@example.org';
const HOUR = 3_600_000;

let relay: InProcessRelay;
let service: PushService;
let ada: WebSession;
let bob: WebSession;
let adaSender: string;
let bobSender: string;

before(async () => {
  service = await PushService.start();
  relay = await startInProcessRelay({ pushContact: CONTACT });
  ada = await setUpOperator(relay);
  bob = await join(relay, ada, { username: 'bob', password: 'another horse battery' });
  adaSender = (await pairSender(relay, ada, 'ada-box')).credential;
  bobSender = (await pairSender(relay, bob, 'bob-box')).credential;
  const key = await ada.inbox('GET', '/v1/inbox/push/key');
  service.trust(key.body['publicKey'] as string);
});
after(async () => {
  await relay.cleanup();
  await service.stop();
});

interface DeviceView {
  id: string;
  name: string;
  added_at: string;
  last_delivery_at?: string;
  last_failure_at?: string;
  last_failure?: string;
}

async function devices(web: WebSession): Promise<DeviceView[]> {
  const listed = await web.inbox('GET', '/v1/inbox/push/subscriptions');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  return listed.body['subscriptions'] as DeviceView[];
}

async function addDevice(
  web: WebSession,
  name = 'Pixel 9',
): Promise<{ id: string; subscription: PushSubscriptionJson }> {
  const subscription = service.subscribe();
  const added = await web.inbox('POST', '/v1/inbox/push/subscriptions', { ...subscription, name });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { id: added.body['id'] as string, subscription };
}

async function removeAll(): Promise<void> {
  for (const web of [ada, bob])
    for (const device of await devices(web))
      await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${device.id}`);
}

let ids = 0;
const nextId = (): string => `n-unit-push-${++ids}`;

/** A notification sent by a paired sender, accepted by the relay. */
async function notify(credential: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const id = nextId();
  const sent = await deliver(relay, credential, id, delivered(overrides));
  assert.equal(sent.status, 201, JSON.stringify(sent.body));
  return id;
}

/** Every try the push service saw of one notification at one device, with what it answered. */
const triesOf = (subscription: PushSubscriptionJson, id: string): ReceivedPush[] =>
  service.received.filter(
    (push) => push.subscription === subscription.endpoint.split('/').pop() && push.payload['id'] === id,
  );

async function tries(subscription: PushSubscriptionJson, id: string, count: number): Promise<ReceivedPush[]> {
  return waitFor(() => {
    const seen = triesOf(subscription, id);
    return seen.length >= count && seen;
  }, `${count} tries of ${id}`);
}

async function device(web: WebSession, id: string): Promise<DeviceView | undefined> {
  return (await devices(web)).find((each) => each.id === id);
}

/** The device's queued pushes, as the relay keeps them (a restart loses none). */
async function queued(deviceId: string): Promise<Array<{ attempts: number; next_attempt_at: number }>> {
  return (await relay.store.db.all(
    'SELECT attempts, next_attempt_at FROM push_queue WHERE subscription_id = ? ORDER BY id',
    [deviceId],
  )) as unknown as Array<{ attempts: number; next_attempt_at: number }>;
}

/** The failure the device shows once the push service refused a try, and the queue's next try of it. */
async function refusedTry(
  web: WebSession,
  deviceId: string,
  failure: string,
  attempts: number,
  /** When the try before failed: the failure shown must be a later one. */
  since = 0,
): Promise<{ failedAt: number; nextAt: number }> {
  const shown = await waitFor(async () => {
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

afterEach(() => assert.deepEqual(service.refused, [], 'every push had a valid VAPID JWT and decrypted'));

describe('phone push: devices belong to one account', () => {
  afterEach(removeAll);

  it('gives the relay VAPID key to a signed-in person only, never cached', async () => {
    const key = await ada.inbox('GET', '/v1/inbox/push/key');
    assert.equal(key.status, 200);
    assert.deepEqual(key.body, { publicKey: relay.context.push.publicKey });
    const point = Buffer.from(key.body['publicKey'] as string, 'base64url');
    assert.deepEqual([point.length, point[0]], [65, 4]);
    const raw = await fetch(new URL('/v1/inbox/push/key', relay.url), {
      headers: { cookie: `${ada.cookieHeader()}` },
    });
    assert.equal(raw.headers.get('cache-control'), 'no-store');
    const signedOut = await new WebSession(relay).inbox('GET', '/v1/inbox/push/key');
    assert.deepEqual(
      [signedOut.status, signedOut.body],
      [401, { error: 'invalid_auth', error_description: 'Sign in first.' }],
    );
    const listOut = await new WebSession(relay).inbox('GET', '/v1/inbox/push/subscriptions');
    assert.equal(listOut.status, 401);
  });

  it('registers a device once: again from the same browser it keeps its id; the list never shows its endpoint', async () => {
    const subscription = service.subscribe();
    const added = await ada.inbox('POST', '/v1/inbox/push/subscriptions', { ...subscription, name: 'Phone' });
    assert.equal(added.status, 201);
    assert.match(added.body['id'] as string, /^d_/);
    const again = await ada.inbox('POST', '/v1/inbox/push/subscriptions', {
      ...subscription,
      name: 'Phone renamed',
    });
    assert.deepEqual([again.status, again.body], [200, { id: added.body['id'] }]);
    const listed = await ada.inbox('GET', '/v1/inbox/push/subscriptions');
    assert.deepEqual(listed.body['privacy'], 'full');
    const [only, ...others] = listed.body['subscriptions'] as DeviceView[];
    assert.deepEqual(others, []);
    assert.deepEqual(Object.keys(only!).sort(), ['added_at', 'id', 'name']);
    assert.equal(only!.name, 'Phone renamed');
    assert.ok(Math.abs(Date.parse(only!.added_at) - relay.clock()) < 60_000, only!.added_at);
    assert.deepEqual(await devices(bob), []);
  });

  it('refuses a bad subscription, a missing CSRF token and a signed-out browser, changing nothing', async () => {
    const bad = await ada.inbox('POST', '/v1/inbox/push/subscriptions', { endpoint: 'push' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body['error'], 'invalid_request');
    assert.match(bad.body['error_description'] as string, /endpoint/);
    const noCsrf = await ada.inbox('POST', '/v1/inbox/push/subscriptions', service.subscribe(), '');
    assert.deepEqual(
      [noCsrf.status, noCsrf.body],
      [403, { error: 'csrf', error_description: 'The CSRF token is missing or wrong; reload the page.' }],
    );
    const signedOut = await new WebSession(relay).inbox(
      'POST',
      '/v1/inbox/push/subscriptions',
      service.subscribe(),
    );
    assert.equal(signedOut.status, 401);
    assert.deepEqual(await devices(ada), []);
    const { id } = await addDevice(ada);
    for (const [method, path] of [
      ['DELETE', `/v1/inbox/push/subscriptions/${id}`],
      ['POST', `/v1/inbox/push/subscriptions/${id}/test`],
      ['PUT', '/v1/inbox/push/privacy'],
    ] as const) {
      const refused = await ada.inbox(
        method,
        path,
        method === 'PUT' ? { privacy: 'generic' } : undefined,
        '',
      );
      assert.deepEqual([method, refused.status, refused.body['error']], [method, 403, 'csrf']);
    }
    assert.equal((await devices(ada)).length, 1);
    assert.equal((await ada.inbox('GET', '/v1/inbox/push/subscriptions')).body['privacy'], 'full');
  });

  it("never lets one account see, remove or test another's device", async () => {
    const { id, subscription } = await addDevice(ada, 'Ada phone');
    assert.deepEqual(await devices(bob), []);
    const removed = await bob.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`);
    assert.deepEqual(
      [removed.status, removed.body],
      [404, { error: 'not_found', error_description: 'No such device among yours.' }],
    );
    const tested = await bob.inbox('POST', `/v1/inbox/push/subscriptions/${id}/test`);
    assert.deepEqual([tested.status, tested.body['error_description']], [404, 'No such device among yours.']);
    assert.deepEqual(
      (await devices(ada)).map((each) => each.id),
      [id],
    );
    assert.deepEqual(await queued(id), [], 'no test push queued for the other account');
    const own = await ada.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`);
    assert.equal(own.status, 204);
    assert.deepEqual(await devices(ada), []);
    const twice = await ada.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`);
    assert.equal(twice.status, 404);
    // A removed device gets nothing more.
    const { subscription: other } = await addDevice(ada);
    const later = await notify(adaSender);
    await tries(other, later, 1);
    assert.deepEqual(triesOf(subscription, later), []);
  });

  it("pushes a notification only to its own account's devices", async () => {
    const mine = await addDevice(ada, 'Ada phone');
    const theirs = await addDevice(bob, 'Bob phone');
    const forAda = await notify(adaSender);
    const forBob = await notify(bobSender);
    await tries(mine.subscription, forAda, 1);
    await tries(theirs.subscription, forBob, 1);
    assert.deepEqual(triesOf(theirs.subscription, forAda), []);
    assert.deepEqual(triesOf(mine.subscription, forBob), []);
  });

  it('a browser subscribed again by another person becomes theirs: the first account gets no more pushes there', async () => {
    const { id, subscription } = await addDevice(ada, 'Shared tablet');
    const moved = await bob.inbox('POST', '/v1/inbox/push/subscriptions', {
      ...subscription,
      name: 'Bob tablet',
    });
    assert.deepEqual([moved.status, moved.body], [200, { id }]);
    assert.deepEqual(await devices(ada), []);
    assert.deepEqual(
      (await devices(bob)).map((each) => [each.id, each.name]),
      [[id, 'Bob tablet']],
    );
    const { subscription: adaOther } = await addDevice(ada);
    const forBob = await notify(bobSender);
    const forAda = await notify(adaSender);
    await tries(adaOther, forAda, 1);
    await tries(subscription, forBob, 1);
    assert.deepEqual(triesOf(subscription, forAda), []);
  });

  it('takes 20 devices a person, then refuses more, but the same browser can still register again', async () => {
    const first = await addDevice(ada);
    for (let index = 1; index < 20; index++) await addDevice(ada, `Device ${index}`);
    const full = await ada.inbox('POST', '/v1/inbox/push/subscriptions', service.subscribe());
    assert.deepEqual(
      [full.status, full.body],
      [
        409,
        { error: 'conflict', error_description: 'You have 20 devices for alerts already; remove one first.' },
      ],
    );
    const again = await ada.inbox('POST', '/v1/inbox/push/subscriptions', first.subscription);
    assert.deepEqual([again.status, again.body], [200, { id: first.id }]);
    const bobs = await addDevice(bob);
    const taken = await ada.inbox('POST', '/v1/inbox/push/subscriptions', bobs.subscription);
    assert.equal(taken.status, 409, 'a full account cannot take over another browser');
    assert.deepEqual(
      (await devices(bob)).map((each) => each.id),
      [bobs.id],
    );
    assert.equal((await devices(ada)).length, 20);
    // One fewer for Bob still lets him take a browser of Ada's.
    const movedToBob = await bob.inbox('POST', '/v1/inbox/push/subscriptions', first.subscription);
    assert.deepEqual([movedToBob.status, movedToBob.body], [200, { id: first.id }]);
  });

  it("keeps each person's privacy choice, refusing an unknown one", async () => {
    const bad = await ada.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'secret' });
    assert.deepEqual(
      [bad.status, bad.body],
      [400, { error: 'invalid_request', error_description: 'privacy must be one of full, title, generic.' }],
    );
    const notObject = await ada.inbox('PUT', '/v1/inbox/push/privacy', ['title']);
    assert.equal(notObject.status, 400);
    const set = await ada.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'title' });
    assert.deepEqual([set.status, set.body], [200, { privacy: 'title' }]);
    assert.equal((await ada.inbox('GET', '/v1/inbox/push/subscriptions')).body['privacy'], 'title');
    assert.equal((await bob.inbox('GET', '/v1/inbox/push/subscriptions')).body['privacy'], 'full');
    const { subscription } = await addDevice(ada);
    const id = await notify(adaSender);
    const [push] = await tries(subscription, id, 1);
    assert.deepEqual([push!.payload['title'], push!.payload['body']], ['Run this?', '']);
    await ada.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'full' });
  });
});

describe('phone push: sending', () => {
  afterEach(removeAll);

  it("encrypts each push to the device's own keys and signs it with the relay's VAPID key for the push service's origin", async () => {
    const phone = await addDevice(ada, 'Phone');
    const tablet = await addDevice(ada, 'Tablet');
    const id = await notify(adaSender);
    // The stand-in decrypted each with that subscription's keys and checked the JWT (aud, exp, sub, k).
    const [push] = await tries(phone.subscription, id, 1);
    await tries(tablet.subscription, id, 1);
    assert.equal(push!.sender, CONTACT);
    assert.equal(push!.status, 201);
    const { answer, ...rest } = push!.payload as { answer: { url: string; token: string } };
    assert.deepEqual(rest, {
      id,
      lifecycle: 1,
      revision: 1,
      status: 'active',
      title: 'Run this?',
      body: 'npm publish',
      agent: 'claude-code',
      project: 'notify',
      type: 'permission_required',
      priority: 'high',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    assert.match(answer.url, new RegExp(`^${relay.url}/v1/push/notifications/\\d+/answer$`));
    assert.match(answer.token, /^nrt_[A-Za-z0-9_-]{43}$/);
    assert.equal(push!.urgency, 'high');
    assert.ok(push!.ttl > 23 * 3600 && push!.ttl <= 24 * 3600, `TTL ${push!.ttl}`);
    assert.match(push!.topic!, /^[A-Za-z0-9_-]{32}$/);
    const shown = await waitFor(
      async () => (await device(ada, phone.id))?.last_delivery_at,
      'the delivery shown on the device',
    );
    assert.ok(Math.abs(Date.parse(shown) - relay.clock()) < 60_000, shown);
    assert.deepEqual(await queued(phone.id), [], 'a delivered push leaves the queue');
  });

  it('keeps the payload within 2 KB and sends an info notification at normal urgency without an answer', async () => {
    const { subscription } = await addDevice(ada);
    const long = await notify(adaSender, { message: 'é'.repeat(4000) });
    const [push] = await tries(subscription, long, 1);
    assert.ok(push!.bytes <= 2048 && push!.bytes > 1900, `${push!.bytes} bytes`);
    const info = await notify(adaSender, { type: 'completed', priority: 'normal', actions: [] });
    const [plain] = await tries(subscription, info, 1);
    assert.equal(plain!.urgency, 'normal');
    assert.equal(plain!.payload['answer'], undefined);
  });

  it('a push answers its notification once with its token; a malformed, foreign or used token is refused', async () => {
    const { subscription } = await addDevice(ada);
    const id = await notify(adaSender);
    const other = await notify(adaSender);
    const [push] = await tries(subscription, id, 1);
    const [otherPush] = await tries(subscription, other, 1);
    const { url, token } = push!.payload['answer'] as { url: string; token: string };
    const path = new URL(url).pathname;
    const answer = (body: unknown, at = path) => api(relay, 'POST', at, { body });
    const missing = await answer({ action: 'allow' });
    assert.deepEqual(
      [missing.status, missing.body],
      [400, { error: 'invalid_request', error_description: 'action and token are required.' }],
    );
    assert.equal((await answer({ token })).status, 400);
    const forbidden = [
      403,
      { error: 'forbidden', error_description: 'This answer link is not valid for this notification.' },
    ];
    const otherToken = (otherPush!.payload['answer'] as { token: string }).token;
    for (const [body, at] of [
      [{ action: 'allow', token: `${token}x` }, path],
      [{ action: 'allow', token: `nrt_${'A'.repeat(43)}` }, path],
      [{ action: 'allow', token: otherToken }, path],
      [{ action: 'allow', token }, path.replace(/\/(\d+)\/answer$/, '/x$1/answer')],
      [{ action: 'allow', token }, path.replace(/\/(\d+)\/answer$/, '/1234567890123456/answer')],
    ] as const) {
      const refused = await answer(body, at);
      assert.deepEqual([refused.status, refused.body], forbidden, JSON.stringify(body) + at);
    }
    const unknown = await answer({ action: 'maybe', token });
    assert.deepEqual(
      [unknown.status, unknown.body],
      [400, { error: 'invalid_request', error_description: 'This notification does not offer that action.' }],
    );
    const answered = await answer({ action: 'deny', token });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.deepEqual(Object.keys(answered.body).sort(), ['answer', 'id', 'lifecycle', 'revision', 'status']);
    assert.deepEqual(
      [answered.body['id'], answered.body['lifecycle'], answered.body['revision'], answered.body['status']],
      [id, 1, 1, 'resolved'],
    );
    assert.equal((answered.body['answer'] as { action: string }).action, 'deny');
    const again = await answer({ action: 'allow', token });
    assert.deepEqual(
      [again.status, again.body],
      [409, { error: 'conflict', error_description: 'This answer link was used already.' }],
    );
    // The answer ended it: the closing push has no answer and no actions.
    const [, closing] = await tries(subscription, id, 2);
    assert.deepEqual(
      [closing!.payload['status'], closing!.payload['actions'], closing!.payload['answer']],
      ['resolved', [], undefined],
    );
  });

  it('sends "Send test" to that device only: the test payload, for a minute, at normal urgency', async () => {
    const phone = await addDevice(ada, 'Phone');
    const tablet = await addDevice(ada, 'Tablet');
    const sent = await ada.inbox('POST', `/v1/inbox/push/subscriptions/${phone.id}/test`);
    assert.deepEqual([sent.status, sent.body], [202, { queued: true }]);
    const [test] = await tries(phone.subscription, 'notify-relay-test', 1);
    assert.deepEqual(
      [test!.payload['title'], test!.ttl, test!.urgency, test!.topic],
      ['Notify test', 60, 'normal', undefined],
    );
    assert.deepEqual(triesOf(tablet.subscription, 'notify-relay-test'), []);
  });

  it('removes a device the push service says is gone (404, 410), with its queued pushes; the account keeps its others', async () => {
    for (const status of [404, 410]) {
      const gone = await addDevice(ada, `Gone ${status}`);
      const kept = await addDevice(ada, 'Kept');
      service.answerNext(gone.subscription, { status });
      const id = await notify(adaSender);
      await tries(kept.subscription, id, 1);
      await waitFor(async () => !(await device(ada, gone.id)), `the device removed after ${status}`);
      assert.deepEqual(await queued(gone.id), []);
      assert.ok(await device(ada, kept.id), 'the other device stays');
      await removeAll();
    }
  });

  it('waits out 429 with its Retry-After in seconds, then delivers', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 429, retryAfter: '120' });
    const id = await notify(adaSender);
    const refused = await refusedTry(ada, deviceId, 'the push service answered 429; trying again', 1);
    assert.equal(refused.nextAt - refused.failedAt, 120_000);
    relay.advance(121_000);
    await waitFor(
      async () => (await device(ada, deviceId))?.last_delivery_at,
      'the delivery after Retry-After',
    );
    assert.deepEqual(
      triesOf(subscription, id).map((push) => push.status),
      [429, 201],
    );
    assert.deepEqual(await queued(deviceId), []);
  });

  it('backs off 1 s then 2 s on 5xx without Retry-After; an HTTP-date Retry-After is honoured, at most a day', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503 }, { status: 500 });
    await notify(adaSender);
    const first = await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    assert.equal(first.nextAt - first.failedAt, 1000);
    relay.advance(1000);
    const second = await refusedTry(ada, deviceId, 'the push service answered 500; trying again', 2);
    assert.equal(second.nextAt - second.failedAt, 2000);
    relay.advance(2000);
    await waitFor(async () => (await queued(deviceId)).length === 0, 'the third try delivered');
    await removeAll();

    const dated = await addDevice(ada);
    const at = new Date(Math.ceil((relay.clock() + 2 * HOUR) / 1000) * 1000);
    service.answerNext(dated.subscription, { status: 503, retryAfter: at.toUTCString() });
    await notify(adaSender);
    const byDate = await refusedTry(ada, dated.id, 'the push service answered 503; trying again', 1);
    assert.equal(byDate.nextAt, at.getTime());
    await removeAll();

    const capped = await addDevice(ada);
    service.answerNext(capped.subscription, { status: 429, retryAfter: String(3 * 24 * 3600) });
    await notify(adaSender);
    const aDay = await refusedTry(ada, capped.id, 'the push service answered 429; trying again', 1);
    assert.equal(aDay.nextAt - aDay.failedAt, 24 * HOUR);
  });

  it('keeps its own back-off when Retry-After asks for less, and gives up after 15 tries', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503, retryAfter: '0' }, { status: 503, retryAfter: '1' });
    await notify(adaSender);
    const first = await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    assert.equal(first.nextAt - first.failedAt, 1000);
    // Tries 2 to 13 failed too (the queue counts them), each waiting longer.
    await relay.store.db.run('UPDATE push_queue SET attempts = 13 WHERE subscription_id = ?', [deviceId]);
    relay.advance(1000);
    const fourteenth = await refusedTry(
      ada,
      deviceId,
      'the push service answered 503; trying again',
      14,
      first.failedAt,
    );
    assert.equal(fourteenth.nextAt - fourteenth.failedAt, HOUR, 'the back-off stops growing at an hour');
    service.answerNext(subscription, { status: 502 });
    relay.advance(HOUR);
    await waitFor(async () => (await queued(deviceId)).length === 0, 'the push given up');
    const shown = await device(ada, deviceId);
    assert.equal(shown!.last_failure, 'the push service answered 502');
  });

  it('gives up at once on another refusal (400, 403) and shows why on the device', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 400 });
    await notify(adaSender);
    await waitFor(
      async () => (await device(ada, deviceId))?.last_failure === 'the push service refused it (400)',
      'the refusal shown',
    );
    assert.deepEqual(await queued(deviceId), []);
  });

  it('resends a push shortened after 413, and gives up when the short one is too large too', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 413 });
    const id = await notify(adaSender, { message: 'x'.repeat(1500) });
    const [tooLarge, short] = await tries(subscription, id, 2);
    assert.equal(tooLarge!.payload['body'], 'x'.repeat(1500));
    assert.deepEqual(
      [short!.payload['body'], short!.payload['title'], short!.status],
      ['', 'Run this?', 201],
    );
    assert.ok(short!.payload['answer'], 'still answerable');
    service.answerNext(subscription, { status: 413 }, { status: 413 });
    const again = await notify(adaSender);
    await tries(subscription, again, 2);
    await waitFor(
      async () => (await device(ada, deviceId))?.last_failure === 'the push service refused it (413)',
      'the short push refused too',
    );
    assert.deepEqual(await queued(deviceId), []);
    assert.equal(triesOf(subscription, again).length, 2);
  });

  it('tries again when the push service cannot be reached', async () => {
    const subscription = service.subscribe();
    const unreachable = { ...subscription, endpoint: 'http://127.0.0.1:9/push/nowhere' };
    const added = await ada.inbox('POST', '/v1/inbox/push/subscriptions', unreachable);
    assert.equal(added.status, 201);
    await notify(adaSender);
    const refused = await refusedTry(
      ada,
      added.body['id'] as string,
      'the push service could not be reached; trying again',
      1,
    );
    assert.equal(refused.nextAt - refused.failedAt, 1000);
  });

  it('sends nothing for a notification whose answer time ran out while it waited', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503, retryAfter: String(24 * 3600) });
    const id = await notify(adaSender);
    await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    // A day and a minute later, the people signed in meanwhile (a session ends after 12 idle hours).
    for (const step of [11 * HOUR, 11 * HOUR, 2 * HOUR + 60_000]) {
      relay.advance(step);
      for (const web of [ada, bob]) assert.equal((await web.get('/inbox')).status, 200);
    }
    await waitFor(async () => (await queued(deviceId)).length === 0, 'the expired push dropped');
    assert.deepEqual(
      triesOf(subscription, id).map((push) => push.status),
      [503],
    );
  });
});
