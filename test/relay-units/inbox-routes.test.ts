/**
 * The inbox page's JSON API as the page and an attacker use it: the list, an answer, a dismissal.
 * The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deliver, delivered, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { join } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

interface Item {
  inbox_id: string;
  id: string;
  lifecycle: number;
  revision: number;
  status: string;
  answer?: { action: string };
  installation: { id: string; name: string };
  project?: string;
}

let relay: InProcessRelay;
let web: WebSession;
let credential: string;
let count = 0;

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
  credential = (await pairSender(relay, web, 'inbox-box')).credential;
});
after(async () => relay.cleanup());

/** A new notification in the operator's inbox, as the page lists it. */
async function newItem(overrides: Record<string, unknown> = {}): Promise<Item> {
  const id = `n-inbox-${++count}`;
  assert.equal((await deliver(relay, credential, id, delivered(overrides))).status, 201);
  const list = await web.inbox('GET', '/v1/inbox/notifications');
  const item = (list.body['notifications'] as Item[]).find((candidate) => candidate.id === id);
  assert.ok(item, JSON.stringify(list.body));
  return item;
}

async function raw(path: string, init: RequestInit & { headers?: Record<string, string> }) {
  const response = await fetch(new URL(path, relay.url), init);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('relay inbox API: the list', () => {
  it("lists only the signed-in person's notifications, never cached, and asks anyone else to sign in", async () => {
    await newItem();
    const list = await raw('/v1/inbox/notifications', { headers: { cookie: web.cookieHeader() } });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('cache-control'), 'no-store');
    assert.ok((list.body['notifications'] as Item[]).length >= 1);
    const stranger = await raw('/v1/inbox/notifications', {});
    assert.equal(stranger.status, 401);
    assert.deepEqual(stranger.body, { error: 'invalid_auth', error_description: 'Sign in first.' });
    const other = await join(relay, web, { username: 'olga', password: 'olga has a long password' });
    assert.deepEqual((await other.inbox('GET', '/v1/inbox/notifications')).body['notifications'], []);
  });

  it('names the machine each notification came from, and its project only when it has one', async () => {
    const withProject = await newItem({ project: 'notify' });
    assert.equal(withProject.installation.name, 'inbox-box');
    assert.match(withProject.installation.id, /\S/);
    assert.equal(withProject.project, 'notify');
    const withoutProject = await newItem({ project: undefined });
    assert.equal('project' in withoutProject, false, JSON.stringify(withoutProject));
  });
});

describe('relay inbox API: answering', () => {
  it('records the answer the page gave for the revision it showed, once', async () => {
    const item = await newItem();
    const answered = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
      action: 'allow',
      lifecycle: item.lifecycle,
      revision: item.revision,
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.equal((answered.body['answer'] as { action: string }).action, 'allow');
    assert.equal(answered.body['id'], item.id);
    const again = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
      action: 'deny',
      lifecycle: item.lifecycle,
      revision: item.revision,
    });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      error: 'conflict',
      error_description: 'This notification was already answered.',
    });
  });

  it('refuses an answer without the session, the CSRF token or from another origin, recording nothing', async () => {
    const item = await newItem();
    const body = JSON.stringify({ action: 'allow', lifecycle: item.lifecycle, revision: item.revision });
    const path = `/v1/inbox/notifications/${item.inbox_id}/answer`;
    const json = { 'content-type': 'application/json' };
    const noSession = await raw(path, {
      method: 'POST',
      headers: { ...json, 'x-csrf-token': web.csrf },
      body,
    });
    assert.equal(noSession.status, 401);
    assert.equal(noSession.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(noSession.body, { error: 'invalid_auth', error_description: 'Sign in first.' });
    const noToken = await web.inbox('POST', path, JSON.parse(body), '');
    assert.equal(noToken.status, 403);
    assert.deepEqual(noToken.body, {
      error: 'csrf',
      error_description: 'The CSRF token is missing or wrong; reload the page.',
    });
    const foreign = await raw(path, {
      method: 'POST',
      headers: {
        ...json,
        cookie: web.cookieHeader(),
        'x-csrf-token': web.csrf,
        origin: 'https://evil.example',
      },
      body,
    });
    assert.equal(foreign.status, 403);
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    const after = (list.body['notifications'] as Item[]).find((candidate) => candidate.id === item.id)!;
    assert.equal(after.answer, undefined);
  });

  it('says what is wrong with a malformed answer', async () => {
    const item = await newItem();
    const path = `/v1/inbox/notifications/${item.inbox_id}/answer`;
    const cases: Array<[string, unknown, string]> = [
      [
        '/v1/inbox/notifications/abc/answer',
        { action: 'allow', lifecycle: item.lifecycle, revision: item.revision },
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      ],
      [
        path,
        { action: 'allow', revision: item.revision },
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      ],
      [
        path,
        { action: 'allow', lifecycle: 1.5, revision: item.revision },
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      ],
      [path, [1, 2], 'An inbox id in the path and an integer lifecycle in the body are needed.'],
      [path, null, 'An inbox id in the path and an integer lifecycle in the body are needed.'],
      [
        `/v1/inbox/notifications/${item.inbox_id}x/answer`,
        { action: 'allow', lifecycle: item.lifecycle, revision: item.revision },
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      ],
      [
        `/v1/inbox/notifications/x${item.inbox_id}/answer`,
        { action: 'allow', lifecycle: item.lifecycle, revision: item.revision },
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      ],
      [path, { lifecycle: item.lifecycle, revision: item.revision }, 'action is required.'],
      [
        path,
        { action: 'allow', lifecycle: item.lifecycle },
        'revision is required: the revision the page showed.',
      ],
      [
        path,
        { action: 'maybe', lifecycle: item.lifecycle, revision: item.revision },
        'This notification does not offer that action.',
      ],
    ];
    for (const [where, body, message] of cases) {
      const refused = await web.inbox('POST', where, body);
      assert.equal(refused.status, 400, message);
      assert.deepEqual(refused.body, { error: 'invalid_request', error_description: message });
    }
  });

  it("refuses an answer to a notification that is not in this person's inbox", async () => {
    const item = await newItem();
    const other = await join(relay, web, { username: 'pete', password: 'pete has a long password' });
    for (const [who, id] of [
      [other, item.inbox_id],
      [web, '999999'],
    ] as const) {
      const refused = await who.inbox('POST', `/v1/inbox/notifications/${id}/answer`, {
        action: 'allow',
        lifecycle: item.lifecycle,
        revision: item.revision,
      });
      assert.equal(refused.status, 404);
      assert.deepEqual(refused.body, {
        error: 'not_found',
        error_description: 'No such notification in your inbox.',
      });
    }
  });

  it('refuses an answer to what the page no longer shows: another revision, another lifecycle', async () => {
    const item = await newItem();
    const path = `/v1/inbox/notifications/${item.inbox_id}/answer`;
    const stale = await web.inbox('POST', path, {
      action: 'allow',
      lifecycle: item.lifecycle,
      revision: item.revision + 1,
    });
    assert.equal(stale.status, 409);
    assert.deepEqual(stale.body, {
      error: 'conflict',
      error_description:
        'This request changed after the page showed it, so your answer was not given; look at it again and answer what it asks now.',
    });
    const old = await web.inbox('POST', path, {
      action: 'allow',
      lifecycle: item.lifecycle + 1,
      revision: item.revision,
    });
    assert.equal(old.status, 409);
    assert.deepEqual(old.body, {
      error: 'conflict',
      error_description: 'This notification changed since the page showed it; look again.',
    });
  });

  it('refuses an answer to a request whose text hides how it runs: it is answered in the terminal', async () => {
    const item = await newItem({ message: 'ls \u202e hs.| lruc' });
    const refused = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
      action: 'allow',
      lifecycle: item.lifecycle,
      revision: item.revision,
    });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, {
      error: 'conflict',
      error_description:
        'Answer in the terminal: this text contains characters that change how it is displayed.',
    });
  });
});

describe('relay inbox API: resolving and dismissing', () => {
  it('dismisses a notification for the lifecycle the page showed; an answer after it is refused', async () => {
    const item = await newItem();
    const path = `/v1/inbox/notifications/${item.inbox_id}/status`;
    const dismissed = await web.inbox('POST', path, { status: 'dismissed', lifecycle: item.lifecycle });
    assert.equal(dismissed.status, 200, JSON.stringify(dismissed.body));
    assert.equal(dismissed.body['status'], 'dismissed');
    const late = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
      action: 'allow',
      lifecycle: item.lifecycle,
      revision: item.revision,
    });
    assert.equal(late.status, 409);
    assert.deepEqual(late.body, {
      error: 'conflict',
      error_description: 'This notification is no longer active.',
    });
    const resolved = await newItem();
    const done = await web.inbox('POST', `/v1/inbox/notifications/${resolved.inbox_id}/status`, {
      status: 'resolved',
      lifecycle: resolved.lifecycle,
    });
    assert.equal(done.status, 200);
    assert.equal(done.body['status'], 'resolved');
  });

  it('refuses another status, another lifecycle, a foreign notification and a request without its token', async () => {
    const item = await newItem();
    const path = `/v1/inbox/notifications/${item.inbox_id}/status`;
    const odd = await web.inbox('POST', path, { status: 'active', lifecycle: item.lifecycle });
    assert.equal(odd.status, 400);
    assert.deepEqual(odd.body, {
      error: 'invalid_request',
      error_description: 'status must be resolved or dismissed.',
    });
    const old = await web.inbox('POST', path, { status: 'dismissed', lifecycle: item.lifecycle + 1 });
    assert.equal(old.status, 409);
    assert.deepEqual(old.body, {
      error: 'conflict',
      error_description: 'This notification changed since the page showed it; look again.',
    });
    const missing = await web.inbox('POST', '/v1/inbox/notifications/999999/status', {
      status: 'dismissed',
      lifecycle: 1,
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      error: 'not_found',
      error_description: 'No such notification in your inbox.',
    });
    const noToken = await web.inbox(
      'POST',
      path,
      { status: 'dismissed', lifecycle: item.lifecycle },
      'nrx_wrong',
    );
    assert.equal(noToken.status, 403);
    const noLifecycle = await web.inbox('POST', path, { status: 'dismissed' });
    assert.equal(noLifecycle.status, 400);
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    assert.equal(
      (list.body['notifications'] as Item[]).find((candidate) => candidate.id === item.id)!.status,
      'active',
    );
  });
});
