/** Delivery, lifecycles, answers and the event stream of docs/relay-protocol.md against the real notify-relay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { within } from '../support/wait-for.js';

let relay: RelayProcess;
let web: WebSession;
let credential: string;
let installationId: string;

before(async () => {
  relay = await startRelay();
  web = await setUpOperator(relay);
  const paired = await pairSender(relay, web);
  credential = paired.credential;
  installationId = paired.installation.id;
});
after(async () => relay.cleanup());

function eventsOf(reader: SseReader, type: string) {
  return reader.events
    .filter((frame) => frame.event === type)
    .map((frame) => ({ id: Number(frame.id), ...JSON.parse(frame.data!) }));
}

async function inboxItem(id: string): Promise<Record<string, unknown>> {
  const listed = await web.inbox('GET', '/v1/inbox/notifications', undefined, undefined);
  const items = listed.body['notifications'] as Record<string, unknown>[];
  const item = items.find((candidate) => candidate['id'] === id);
  assert.ok(item, `notification ${id} is in the inbox`);
  return item;
}

describe('delivery', () => {
  it('201 for a new notification (lifecycle 1), 200 for an update in place; the inbox shows the update', async () => {
    const created = await deliver(relay, credential, 'n-update', delivered());
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: 'n-update', lifecycle: 1, status: 'active' });
    const updated = await deliver(
      relay,
      credential,
      'n-update',
      delivered({ title: 'Run this now?', updated_at: '2026-11-25T17:43:00.000Z' }),
    );
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body, { id: 'n-update', lifecycle: 1, status: 'active' });
    assert.equal((await inboxItem('n-update'))['title'], 'Run this now?');
  });

  it('a replayed Idempotency-Key answers the first response and changes nothing; reused with another body: 422', async () => {
    const first = await deliver(relay, credential, 'n-idem', delivered(), 'idem-1');
    assert.equal(first.status, 201);
    const replay = await deliver(relay, credential, 'n-idem', delivered(), 'idem-1');
    assert.equal(replay.status, 201);
    assert.deepEqual(replay.body, first.body);
    const reused = await deliver(relay, credential, 'n-idem', delivered({ title: 'Other' }), 'idem-1');
    assert.equal(reused.status, 422);
    assert.equal(reused.body['error'], 'idempotency_key_reused');
    assert.equal((await inboxItem('n-idem'))['title'], 'Run this?');
  });

  it('an update older than the stored one changes nothing', async () => {
    await deliver(relay, credential, 'n-stale', delivered({ updated_at: '2026-11-25T18:00:00.000Z' }));
    const late = await deliver(
      relay,
      credential,
      'n-stale',
      delivered({ title: 'Old', updated_at: '2026-11-25T17:00:00.000Z' }),
    );
    assert.equal(late.status, 200);
    assert.equal((await inboxItem('n-stale'))['title'], 'Run this?');
  });

  it('resolve and dismiss from the sender; active again after that starts lifecycle 2 (201) without the old answer', async () => {
    await deliver(relay, credential, 'n-life', delivered());
    const resolved = await api(relay, 'POST', '/v1/notifications/n-life/status', {
      bearer: credential,
      body: { status: 'resolved' },
    });
    assert.equal(resolved.status, 200);
    assert.deepEqual(resolved.body, { id: 'n-life', lifecycle: 1, status: 'resolved' });
    const dismissedAfter = await api(relay, 'POST', '/v1/notifications/n-life/status', {
      bearer: credential,
      body: { status: 'dismissed' },
    });
    assert.deepEqual(
      dismissedAfter.body,
      { id: 'n-life', lifecycle: 1, status: 'resolved' },
      'an ended notification stays ended',
    );
    const reopened = await deliver(
      relay,
      credential,
      'n-life',
      delivered({ updated_at: '2026-11-25T17:50:00.000Z' }),
    );
    assert.equal(reopened.status, 201);
    assert.deepEqual(reopened.body, { id: 'n-life', lifecycle: 2, status: 'active' });
    const item = await inboxItem('n-life');
    assert.equal(item['lifecycle'], 2);
    assert.equal(item['status'], 'active');
  });

  it('status of an id never delivered: 404; another status value: 400', async () => {
    const missing = await api(relay, 'POST', '/v1/notifications/never/status', {
      bearer: credential,
      body: { status: 'resolved' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body['error'], 'not_found');
    const active = await api(relay, 'POST', '/v1/notifications/never/status', {
      bearer: credential,
      body: { status: 'active' },
    });
    assert.equal(active.status, 400);
  });

  const bad: [string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
    [
      'no Idempotency-Key',
      () => api(relay, 'PUT', '/v1/notifications/n-bad', { bearer: credential, body: delivered() }),
      400,
      'Idempotency-Key',
    ],
    ['no title', () => deliver(relay, credential, 'n-bad', delivered({ title: undefined })), 400, 'title'],
    [
      'a message over 4000 characters',
      () => deliver(relay, credential, 'n-bad', delivered({ message: 'm'.repeat(4001) })),
      400,
      'message',
    ],
    [
      'an unknown priority',
      () => deliver(relay, credential, 'n-bad', delivered({ priority: 'urgent' })),
      400,
      'priority',
    ],
    [
      'an unknown status',
      () => deliver(relay, credential, 'n-bad', delivered({ status: 'open' })),
      400,
      'status',
    ],
    [
      'four actions',
      () =>
        deliver(
          relay,
          credential,
          'n-bad',
          delivered({ actions: [1, 2, 3, 4].map((n) => ({ id: `a${n}`, label: 'A' })) }),
        ),
      400,
      'actions',
    ],
    [
      'a bad created_at',
      () => deliver(relay, credential, 'n-bad', delivered({ created_at: 'yesterday' })),
      400,
      'created_at',
    ],
    [
      'an id with a slash-like character',
      () => deliver(relay, credential, 'n%20bad', delivered()),
      400,
      'notification id',
    ],
    [
      'a revoked-looking credential',
      () => deliver(relay, `nrc_${'Z'.repeat(43)}`, 'n-bad', delivered()),
      401,
      'credential',
    ],
  ];
  for (const [what, call, status, named] of bad) {
    it(`refuses ${what} (${status}), naming ${named}, and stores nothing`, async () => {
      const response = await call();
      assert.equal(response.status, status);
      assert.match(response.body['error_description'] as string, new RegExp(named));
    });
  }

  it('GET /v1/installation without or with a wrong credential: 401 invalid_auth', async () => {
    for (const bearer of [
      undefined,
      'nrc_wrong',
      credential.slice(0, -1) + (credential.endsWith('A') ? 'B' : 'A'),
    ]) {
      const response = await api(relay, 'GET', '/v1/installation', bearer === undefined ? {} : { bearer });
      assert.equal(response.status, 401);
      assert.equal(response.body['error'], 'invalid_auth');
    }
  });

  it('another method on a protocol path: 405', async () => {
    const response = await api(relay, 'DELETE', '/v1/installation', { bearer: credential });
    assert.equal(response.status, 405);
    assert.equal(response.body['error'], 'method_not_allowed');
  });
});

describe('answers and the event stream', () => {
  it('an answer is accepted once, resolves the notification and reaches the stream; a second is refused', async () => {
    const stream = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    try {
      await stream.until((reader) => reader.text.startsWith('retry: 5000'));
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      await deliver(relay, credential, 'n-answer', delivered());
      const item = await inboxItem('n-answer');
      const answered = await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/answer`, {
        action: 'allow',
        lifecycle: 1,
        revision: 1,
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(answered.body['status'], 'resolved');
      assert.deepEqual((answered.body['answer'] as Record<string, unknown>)['action'], 'allow');
      const second = await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/answer`, {
        action: 'deny',
        lifecycle: 1,
        revision: 1,
      });
      assert.equal(second.status, 409);
      assert.equal(second.body['error'], 'conflict');
      await stream.until((reader) =>
        eventsOf(reader, 'answer').some((event) => event.notification_id === 'n-answer'),
      );
      const answers = eventsOf(stream, 'answer').filter((event) => event.notification_id === 'n-answer');
      assert.equal(answers.length, 1);
      assert.equal(answers[0].lifecycle, 1);
      assert.equal(answers[0].action, 'allow');
      assert.ok(!Number.isNaN(Date.parse(answers[0].answered_at)));
      const sender = await api(relay, 'POST', '/v1/notifications/n-answer/status', {
        bearer: credential,
        body: { status: 'dismissed' },
      });
      assert.equal(sender.body['status'], 'resolved');
    } finally {
      stream.close();
    }
  });

  it('an answer for an action not offered (400), for an old lifecycle (409), or a resolved notification (409) is refused', async () => {
    await deliver(relay, credential, 'n-refuse', delivered());
    const item = await inboxItem('n-refuse');
    const path = `/v1/inbox/notifications/${item['inbox_id']}/answer`;
    assert.equal(
      (await web.inbox('POST', path, { action: 'always', lifecycle: 1, revision: 1 })).status,
      400,
    );
    assert.equal((await web.inbox('POST', path, { action: 'allow', lifecycle: 2, revision: 1 })).status, 409);
    await api(relay, 'POST', '/v1/notifications/n-refuse/status', {
      bearer: credential,
      body: { status: 'resolved' },
    });
    assert.equal((await web.inbox('POST', path, { action: 'allow', lifecycle: 1, revision: 1 })).status, 409);
    await deliver(relay, credential, 'n-refuse', delivered({ updated_at: '2026-11-25T18:10:00.000Z' }));
    assert.equal(
      (await web.inbox('POST', path, { action: 'allow', lifecycle: 1, revision: 2 })).status,
      409,
      'the old lifecycle',
    );
    assert.equal(
      (await web.inbox('POST', path, { action: 'allow', lifecycle: 2, revision: 2 })).status,
      200,
      'the new lifecycle asks again, as a new revision',
    );
  });

  it("a content change is a new revision: an answer to the inbox's older view is refused (409), and the event names the sender's revision", async () => {
    const stream = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    try {
      await stream.until((reader) => reader.text.startsWith('retry: 5000'));
      await deliver(relay, credential, 'n-revision', delivered({ message: 'ls -la', revision: 1 }));
      const shown = await inboxItem('n-revision');
      assert.equal(shown['revision'], 1);
      const later = { updated_at: '2026-11-25T18:20:00.000Z' };
      await deliver(relay, credential, 'n-revision', delivered({ ...later, message: 'ls -la', revision: 1 }));
      assert.equal((await inboxItem('n-revision'))['revision'], 1, 'the same content again');
      await deliver(
        relay,
        credential,
        'n-revision',
        delivered({ ...later, message: 'curl https://example.com/x | sh', revision: 2 }),
      );
      const now = await inboxItem('n-revision');
      assert.deepEqual([now['revision'], now['lifecycle']], [2, 1]);
      const path = `/v1/inbox/notifications/${shown['inbox_id']}/answer`;
      const stale = await web.inbox('POST', path, { action: 'allow', lifecycle: 1, revision: 1 });
      assert.deepEqual([stale.status, stale.body['error']], [409, 'conflict']);
      assert.match(String(stale.body['error_description']), /changed after the page showed it/);
      assert.equal((await web.inbox('POST', path, { action: 'allow', lifecycle: 1 })).status, 400);
      const fresh = await web.inbox('POST', path, { action: 'deny', lifecycle: 1, revision: 2 });
      assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
      await stream.until((reader) =>
        eventsOf(reader, 'answer').some((event) => event.notification_id === 'n-revision'),
      );
      const answers = eventsOf(stream, 'answer').filter((event) => event.notification_id === 'n-revision');
      assert.deepEqual(
        answers.map((event) => [event.action, event.revision]),
        [['deny', 2]],
      );
    } finally {
      stream.close();
    }
  });

  it('Last-Event-ID resumes after the last event seen; without it every stored event is replayed', async () => {
    for (const id of ['n-resume-1', 'n-resume-2']) {
      await deliver(relay, credential, id, delivered());
      const item = await inboxItem(id);
      await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/status`, {
        status: 'dismissed',
        lifecycle: 1,
      });
    }
    const all = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    await all.until((reader) =>
      eventsOf(reader, 'status').some((event) => event.notification_id === 'n-resume-2'),
    );
    all.close();
    const statuses = eventsOf(all, 'status').filter((event) =>
      String(event.notification_id).startsWith('n-resume'),
    );
    assert.deepEqual(
      statuses.map((event) => [event.notification_id, event.status, event.lifecycle]),
      [
        ['n-resume-1', 'dismissed', 1],
        ['n-resume-2', 'dismissed', 1],
      ],
    );
    const ids = all.events.map((frame) => Number(frame.id));
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      ids,
      'ids increase',
    );
    const resumed = new SseReader(
      relay.port,
      { authorization: `Bearer ${credential}`, 'last-event-id': String(statuses[0].id) },
      '/v1/events',
    );
    try {
      await resumed.until((reader) =>
        eventsOf(reader, 'status').some((event) => event.notification_id === 'n-resume-2'),
      );
      const replayed = resumed.events.map((frame) => Number(frame.id));
      assert.ok(
        replayed.every((id) => id > statuses[0].id),
        `only events after ${statuses[0].id}: ${replayed}`,
      );
      // Live after the replay: a new answer arrives on the open stream.
      await deliver(relay, credential, 'n-resume-3', delivered());
      const item = await inboxItem('n-resume-3');
      await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/answer`, {
        action: 'deny',
        lifecycle: 1,
        revision: 1,
      });
      await resumed.until((reader) =>
        eventsOf(reader, 'answer').some((event) => event.notification_id === 'n-resume-3'),
      );
    } finally {
      resumed.close();
    }
  });

  it('the event stream refuses a wrong credential with 401 before it starts', async () => {
    const response = await api(relay, 'GET', '/v1/events', { bearer: 'nrc_nope' });
    assert.equal(response.status, 401);
  });
});

describe('the inbox stream', () => {
  it('shows a signed-in person each change live, and stops after they sign out', async () => {
    const tab = new WebSession(relay);
    await tab.get('/sign-in');
    assert.equal((await tab.post('/sign-in', OPERATOR)).status, 303);
    await tab.get('/inbox');
    const stream = new SseReader(relay.port, { cookie: tab.cookieHeader() }, '/v1/inbox/stream');
    try {
      await stream.until((reader) => reader.text.startsWith('retry:'));
      await deliver(relay, credential, 'n-live', delivered({ title: 'Live one' }));
      await stream.until((reader) => reader.events.some((frame) => frame.event === 'changed'));
      const item = JSON.parse(stream.events.find((frame) => frame.event === 'changed')!.data!);
      assert.equal(item.id, 'n-live');
      assert.equal(item.title, 'Live one');
      assert.equal(item.installation.id, installationId);
      assert.equal((await tab.post('/sign-out', {})).status, 303);
      await deliver(relay, credential, 'n-after', delivered({ title: 'After sign-out' }));
      await within(stream.ended, 'the inbox stream of the signed-out session to end');
      assert.doesNotMatch(stream.text, /After sign-out/);
    } finally {
      stream.close();
    }
  });

  it('refuses a browser without a session (401)', async () => {
    const response = await fetch(`${relay.url}/v1/inbox/stream`);
    assert.equal(response.status, 401);
  });
});

describe('revocation', () => {
  it('a revoked installation is refused at once, its open stream is closed and what it delivered is gone', async () => {
    const other = await pairSender(relay, web, 'old-laptop');
    await deliver(relay, other.credential, 'n-revoked', delivered());
    const stream = new SseReader(relay.port, { authorization: `Bearer ${other.credential}` }, '/v1/events');
    await stream.until((reader) => reader.text.startsWith('retry:'));
    const page = await web.get('/installations');
    assert.match(page.text, /old-laptop/);
    const asked = await web.post(`/installations/${other.installation.id}/revoke`, {});
    assert.equal(asked.status, 200);
    assert.match(asked.text, /<h1>Revoke old-laptop\?<\/h1>/);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: other.credential })).status, 200);
    const revoked = await web.post(`/installations/${other.installation.id}/revoke`, { confirm: 'yes' });
    assert.equal(revoked.status, 200);
    assert.doesNotMatch(revoked.text, /old-laptop/);
    await within(stream.ended, 'the event stream of the revoked installation to end');
    for (const call of [
      () => api(relay, 'GET', '/v1/installation', { bearer: other.credential }),
      () => deliver(relay, other.credential, 'n-revoked-2', delivered()),
      () => api(relay, 'GET', '/v1/events', { bearer: other.credential }),
    ]) {
      const response = await call();
      assert.equal(response.status, 401);
      assert.equal(response.body['error'], 'invalid_auth');
    }
    const listed = await web.inbox('GET', '/v1/inbox/notifications');
    assert.ok(!(listed.body['notifications'] as { id: string }[]).some((item) => item.id === 'n-revoked'));
    // The first installation is untouched.
    assert.equal(
      (await api(relay, 'GET', '/v1/installation', { bearer: credential })).body['id'],
      installationId,
    );
  });
});
