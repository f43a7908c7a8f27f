/**
 * Phone push's inbox API and the answer a push carries (docs/relay-protocol.md "Phone push") as people
 * notice them: devices belong to one account, pushes reach only that account's devices, the token
 * answers once. The relay runs in this process with its push sender (push-world.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ReceivedPush } from '../support/push-service.js';
import { api, deliver, delivered, WebSession } from '../support/relay-web.js';
import {
  ada,
  addDevice,
  adaSender,
  bob,
  bobSender,
  devices,
  noRefusedPush,
  notify,
  queued,
  redeliver,
  relay,
  removeAll,
  service,
  startPushWorld,
  stopPushWorld,
  tries,
  triesOf,
  type DeviceView,
} from './push-world.js';

before(startPushWorld);
after(stopPushWorld);
afterEach(noRefusedPush);

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

  it('answers 405, not 404, to another method on each push path', async () => {
    for (const [method, path] of [
      ['PATCH', '/v1/inbox/push/key'],
      ['PATCH', '/v1/inbox/push/subscriptions'],
      ['PATCH', '/v1/inbox/push/subscriptions/d_x'],
      ['GET', '/v1/inbox/push/subscriptions/d_x/test'],
      ['POST', '/v1/inbox/push/privacy'],
      ['GET', '/v1/push/notifications/1/answer'],
    ]) {
      const refused = await api(relay, method!, path!);
      assert.deepEqual([method, path, refused.status], [method, path, 405]);
    }
  });

  it("never lets one account see, remove or test another's device", async () => {
    const { id, subscription } = await addDevice(ada, 'Ada phone');
    const bobs = await addDevice(bob, 'Bob phone');
    assert.deepEqual(
      (await devices(bob)).map((each) => each.id),
      [bobs.id],
    );
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
    for (const notObject of [['title'], null]) {
      const refused = await ada.inbox('PUT', '/v1/inbox/push/privacy', notObject);
      assert.deepEqual([refused.status, refused.body['error']], [400, 'invalid_request']);
    }
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

describe('phone push: the answer a push carries', () => {
  afterEach(removeAll);

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
    const noAction = await answer({ token });
    assert.deepEqual(
      [noAction.status, noAction.body],
      [400, { error: 'invalid_request', error_description: 'action and token are required.' }],
    );
    // A service worker posting JSON null, or a list: refused plainly, the relay still answering.
    for (const body of [null, [token]]) {
      const refused = await answer(body);
      assert.deepEqual(
        [refused.status, refused.body],
        [400, { error: 'invalid_request', error_description: 'action and token are required.' }],
      );
    }
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

  it('refuses an old token once its notification changed, ended or was answered on the page, saying why', async () => {
    const { subscription } = await addDevice(ada);
    const tokenOf = (push: ReceivedPush): { path: string; token: string } => {
      const { url, token } = push.payload['answer'] as { url: string; token: string };
      return { path: new URL(url).pathname, token };
    };
    const refusedWith = async (push: ReceivedPush, description: string): Promise<void> => {
      const { path, token } = tokenOf(push);
      const refused = await api(relay, 'POST', path, { body: { action: 'allow', token } });
      assert.deepEqual(
        [refused.status, refused.body],
        [409, { error: 'conflict', error_description: description }],
      );
    };
    const changed = await notify(adaSender, { updated_at: '2026-11-25T17:43:00.000Z' });
    const [before] = await tries(subscription, changed, 1);
    await redeliver(changed, { message: 'npm publish --force', updated_at: '2026-11-25T17:44:00.000Z' });
    await tries(subscription, changed, 2);
    await refusedWith(before!, 'This notification changed since the push; open it to see what it asks now.');

    // Ended and reopened by the agent: the first push's button must not answer the new request.
    const reopened = await notify(adaSender, { updated_at: '2026-11-25T17:43:00.000Z' });
    const [firstAsk] = await tries(subscription, reopened, 1);
    const closed = await api(relay, 'POST', `/v1/notifications/${reopened}/status`, {
      bearer: adaSender,
      body: { status: 'resolved' },
    });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const again = await deliver(
      relay,
      adaSender,
      reopened,
      delivered({ updated_at: '2026-11-25T17:45:00.000Z' }),
    );
    assert.equal(again.status, 201, JSON.stringify(again.body));
    const [, , secondAsk] = await tries(subscription, reopened, 3);
    assert.equal(secondAsk!.payload['lifecycle'], 2);
    await refusedWith(
      firstAsk!,
      'This notification changed since the push; open it to see what it asks now.',
    );

    const ended = await notify(adaSender);
    const [endedPush] = await tries(subscription, ended, 1);
    const resolved = await api(relay, 'POST', `/v1/notifications/${ended}/status`, {
      bearer: adaSender,
      body: { status: 'resolved' },
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    await refusedWith(endedPush!, 'This notification is no longer active.');

    const onPage = await notify(adaSender);
    const [onPagePush] = await tries(subscription, onPage, 1);
    const inboxId = /\/(\d+)\/answer$/.exec(tokenOf(onPagePush!).path)![1];
    const answered = await ada.inbox('POST', `/v1/inbox/notifications/${inboxId}/answer`, {
      action: 'allow',
      lifecycle: 1,
      revision: 1,
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    await refusedWith(onPagePush!, 'This notification was already answered.');

    const hidden = await notify(adaSender, { updated_at: '2026-11-25T17:43:00.000Z' });
    const [plain] = await tries(subscription, hidden, 1);
    await redeliver(hidden, { message: 'npm publish \u202e', updated_at: '2026-11-25T17:44:00.000Z' });
    const [, withheld] = await tries(subscription, hidden, 2);
    assert.equal(withheld!.payload['answer'], undefined, 'no answer from the push for such text');
    await refusedWith(
      plain!,
      'Answer in the terminal: this text contains characters that change how it is displayed.',
    );
  });

  it('marks every answer of the inbox API and the push answer no-store', async () => {
    const raw = async (method: string, path: string, body?: unknown): Promise<[number, string | null]> => {
      const response = await fetch(new URL(path, relay.url), {
        method,
        headers: {
          cookie: ada.cookieHeader(),
          'x-csrf-token': ada.csrf,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      await response.arrayBuffer();
      return [response.status, response.headers.get('cache-control')];
    };
    const subscription = service.subscribe();
    const created = await ada.inbox('POST', '/v1/inbox/push/subscriptions', subscription);
    const id = created.body['id'] as string;
    assert.deepEqual(await raw('POST', '/v1/inbox/push/subscriptions', subscription), [200, 'no-store']);
    assert.deepEqual(await raw('GET', '/v1/inbox/push/subscriptions'), [200, 'no-store']);
    assert.deepEqual(await raw('PUT', '/v1/inbox/push/privacy', { privacy: 'full' }), [200, 'no-store']);
    assert.deepEqual(await raw('POST', `/v1/inbox/push/subscriptions/${id}/test`), [202, 'no-store']);
    const notification = await notify(adaSender);
    const [push] = await tries(subscription, notification, 1);
    const { url, token } = push!.payload['answer'] as { url: string; token: string };
    assert.deepEqual(await raw('POST', new URL(url).pathname, { action: 'allow', token }), [200, 'no-store']);
    assert.deepEqual(await raw('DELETE', `/v1/inbox/push/subscriptions/${id}`), [204, 'no-store']);
  });
});
