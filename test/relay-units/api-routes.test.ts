/**
 * The sender's API (docs/relay-protocol.md) as a sender and an attacker use it: discovery, pairing,
 * the installation, delivery, status changes and answer links. The relay's server runs in this
 * process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createPairing,
  deliver,
  delivered,
  pairSender,
  setUpOperator,
  WebSession,
  type Pairing,
} from '../support/relay-web.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const PUBLIC_URL = 'https://relay.example.org';

let relay: InProcessRelay;
let web: WebSession;
let sender: { credential: string; installation: { id: string; name: string } };

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
  sender = await pairSender(relay, web, 'api-box');
});
after(async () => relay.cleanup());

function refusal(error: string, description: string): Record<string, unknown> {
  return { error, error_description: description };
}

describe('relay sender API: discovery and pairing', () => {
  it('names itself at the well-known address, never cached', async () => {
    const found = await api(relay, 'GET', '/.well-known/notify-relay');
    assert.equal(found.status, 200);
    assert.deepEqual(found.body, { service: 'notify-relay', name: 'Test relay', api_versions: ['v1'] });
    assert.equal(found.headers.get('cache-control'), 'no-store');
    assert.equal(found.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  it('opens a pairing request with a code to type on its own origin, for 10 minutes', async () => {
    const pairing = await createPairing(relay, 'new-box');
    assert.match(pairing.user_code, /^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    assert.equal(pairing.verification_uri, `${relay.url}/pair`);
    assert.equal(pairing.verification_uri_complete, `${relay.url}/pair?code=${pairing.user_code}`);
    assert.equal(pairing.expires_in, 600);
    assert.equal(pairing.interval, 5);
    assert.match(pairing.poll_secret, /^\S{20,}$/);
    const page = await web.get(`/pair?code=${pairing.user_code}`);
    assert.match(page.text, /<dd id="pair-sender">new-box<\/dd>/);
    assert.match(page.text, /<dt>Client<\/dt><dd>notify\/0\.1\.0<\/dd>/);
  });

  it('refuses a pairing request with a bad body, saying which field', async () => {
    relay.advance(61_000);
    const cases: Array<[unknown, string]> = [
      [[1], 'The body must be a JSON object.'],
      [null, 'The body must be a JSON object.'],
      [{}, 'sender_name must be 1-100 characters without control characters.'],
      [{ sender_name: 'x'.repeat(101) }, 'sender_name must be 1-100 characters without control characters.'],
      [{ sender_name: '📱'.repeat(101) }, 'sender_name must be 1-100 characters without control characters.'],
      [
        { sender_name: 'box', client: 'bad\u0007client' },
        'client must be 1-100 characters without control characters.',
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await api(relay, 'POST', '/v1/pairings', { body });
      assert.equal(refused.status, 400, message);
      assert.deepEqual(refused.body, refusal('invalid_request', message));
    }
    const noClient = await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'bare-box' } });
    assert.equal(noClient.status, 201);
  });

  it('allows 10 pairing requests a minute from one address, then 429 with Retry-After', async () => {
    relay.advance(61_000);
    for (let index = 0; index < 10; index++) {
      assert.equal((await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' } })).status, 201);
    }
    const refused = await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' } });
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, refusal('rate_limited', 'Too many pairing requests from this address.'));
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    relay.advance(61_000);
  });

  it('answers a poll with the poll secret only, and limits polls to 60 a minute', async () => {
    const pairing: Pairing = await createPairing(relay, 'polled-box');
    const path = `/v1/pairings/${pairing.pairing_id}/poll`;
    const wrong = await api(relay, 'POST', path, { bearer: 'nrp_wrong' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(
      wrong.body,
      refusal('invalid_auth', 'The pairing is unknown or the poll secret is wrong.'),
    );
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await api(relay, 'POST', path)).status, 401);
    relay.advance(5000);
    const pending = await api(relay, 'POST', path, { bearer: pairing.poll_secret });
    assert.equal(pending.status, 200);
    assert.equal(pending.body['status'], 'pending');
    relay.advance(61_000);
    const statuses: number[] = [];
    for (let index = 0; index < 61; index++) {
      relay.advance(5000 / 61);
      statuses.push((await api(relay, 'POST', path, { bearer: pairing.poll_secret })).status);
    }
    assert.equal(statuses.filter((status) => status === 429).length, 1);
    assert.equal(statuses[60], 429);
    relay.advance(61_000);
  });
});

describe('relay sender API: behind a public URL', () => {
  let behind: InProcessRelay;
  before(async () => {
    behind = await startInProcessRelay({ publicUrl: PUBLIC_URL });
  });
  after(async () => behind.cleanup());

  it('sends the person to the public URL to type the code', async () => {
    const pairing = await createPairing(behind, 'far-box');
    assert.equal(pairing.verification_uri, `${PUBLIC_URL}/pair`);
    assert.equal(pairing.verification_uri_complete, `${PUBLIC_URL}/pair?code=${pairing.user_code}`);
  });
});

describe('relay sender API: the installation', () => {
  it('tells a paired sender who it is and whose it is; refuses an unknown credential', async () => {
    const me = await api(relay, 'GET', '/v1/installation', { bearer: sender.credential });
    assert.equal(me.status, 200);
    assert.equal(me.body['id'], sender.installation.id);
    assert.equal(me.body['name'], 'api-box');
    assert.equal(me.body['relay_name'], 'Test relay');
    assert.equal(me.body['owner'], 'ada');
    assert.match(String(me.body['created_at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const bearer of ['nrc_unknown', undefined]) {
      const refused = await api(relay, 'GET', '/v1/installation', bearer === undefined ? {} : { bearer });
      assert.equal(refused.status, 401);
      assert.deepEqual(
        refused.body,
        refusal('invalid_auth', 'The credential is missing, unknown or revoked.'),
      );
    }
  });
});

describe('relay sender API: delivery', () => {
  it('stores a notification once per Idempotency-Key, replaying the first answer and refusing the key for another body', async () => {
    const first = await deliver(relay, sender.credential, 'n-api-1', delivered(), 'key-api-1');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const replayed = await deliver(relay, sender.credential, 'n-api-1', delivered(), 'key-api-1');
    assert.equal(replayed.status, 201);
    assert.deepEqual(replayed.body, first.body);
    const reused = await deliver(
      relay,
      sender.credential,
      'n-api-1',
      delivered({ title: 'Other' }),
      'key-api-1',
    );
    assert.equal(reused.status, 422);
    assert.deepEqual(
      reused.body,
      refusal('idempotency_key_reused', 'This Idempotency-Key was used before with another request.'),
    );
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (list.body['notifications'] as Array<{ id: string; title: string }>).find(
      (candidate) => candidate.id === 'n-api-1',
    );
    assert.equal(item?.title, 'Run this?');
  });

  it('refuses a bad id, a missing key, a bad body and a missing credential, storing nothing', async () => {
    const cases: Array<[string, Record<string, string>, unknown, string]> = [
      [
        'n bad id',
        { 'idempotency-key': 'k-1' },
        delivered(),
        'The notification id must be 1-100 characters of A-Z a-z 0-9 . _ : -.',
      ],
      ['n-api-2', {}, delivered(), 'The Idempotency-Key header must be 1-200 visible ASCII characters.'],
      [
        'n-api-2',
        { 'idempotency-key': 'k'.repeat(201) },
        delivered(),
        'The Idempotency-Key header must be 1-200 visible ASCII characters.',
      ],
    ];
    for (const [id, headers, body, message] of cases) {
      const refused = await api(relay, 'PUT', `/v1/notifications/${encodeURIComponent(id)}`, {
        bearer: sender.credential,
        body,
        headers,
      });
      assert.equal(refused.status, 400, message);
      assert.deepEqual(refused.body, refusal('invalid_request', message));
    }
    const badBody = await deliver(relay, sender.credential, 'n-api-2', delivered({ priority: 'loudest' }));
    assert.equal(badBody.status, 400);
    assert.equal(badBody.body['error'], 'invalid_request');
    assert.match(String(badBody.body['error_description']), /priority/);
    const anonymous = await api(relay, 'PUT', '/v1/notifications/n-api-2', {
      body: delivered(),
      headers: { 'idempotency-key': 'k-2' },
    });
    assert.equal(anonymous.status, 401);
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    assert.equal(
      (list.body['notifications'] as Array<{ id: string }>).some((candidate) => candidate.id === 'n-api-2'),
      false,
    );
  });

  it('refuses an Idempotency-Key used before for another notification, even with the same body', async () => {
    const first = await deliver(relay, sender.credential, 'n-api-key-a', delivered(), 'key-api-shared');
    assert.equal(first.status, 201);
    const second = await deliver(relay, sender.credential, 'n-api-key-b', delivered(), 'key-api-shared');
    assert.equal(second.status, 422);
    assert.deepEqual(
      second.body,
      refusal('idempotency_key_reused', 'This Idempotency-Key was used before with another request.'),
    );
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    assert.equal(
      (list.body['notifications'] as Array<{ id: string }>).some(
        (candidate) => candidate.id === 'n-api-key-b',
      ),
      false,
    );
  });

  it('resolves a notification by its sender, and refuses a status change whose body is not an object', async () => {
    assert.equal((await deliver(relay, sender.credential, 'n-api-4', delivered())).status, 201);
    for (const body of [null, ['resolved']]) {
      const refused = await api(relay, 'POST', '/v1/notifications/n-api-4/status', {
        bearer: sender.credential,
        body,
      });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.deepEqual(refused.body, refusal('invalid_request', 'status must be resolved or dismissed.'));
    }
    const done = await api(relay, 'POST', '/v1/notifications/n-api-4/status', {
      bearer: sender.credential,
      body: { status: 'resolved' },
    });
    assert.equal(done.status, 200);
    assert.equal(done.headers.get('cache-control'), 'no-store');
    assert.deepEqual(done.body, { id: 'n-api-4', lifecycle: 1, status: 'resolved' });
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (list.body['notifications'] as Array<{ id: string; status: string }>).find(
      (candidate) => candidate.id === 'n-api-4',
    );
    assert.equal(item?.status, 'resolved');
  });

  it('ends a notification by its sender: resolved or dismissed, nothing else, only its own', async () => {
    assert.equal((await deliver(relay, sender.credential, 'n-api-3', delivered())).status, 201);
    const odd = await api(relay, 'POST', '/v1/notifications/n-api-3/status', {
      bearer: sender.credential,
      body: { status: 'active' },
    });
    assert.equal(odd.status, 400);
    assert.deepEqual(odd.body, refusal('invalid_request', 'status must be resolved or dismissed.'));
    const missing = await api(relay, 'POST', '/v1/notifications/n-api-none/status', {
      bearer: sender.credential,
      body: { status: 'resolved' },
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(
      missing.body,
      refusal('not_found', 'This installation delivered no notification with this id.'),
    );
    const other = await pairSender(relay, web, 'other-box');
    const foreign = await api(relay, 'POST', '/v1/notifications/n-api-3/status', {
      bearer: other.credential,
      body: { status: 'resolved' },
    });
    assert.equal(foreign.status, 404);
    const anonymous = await api(relay, 'POST', '/v1/notifications/n-api-3/status', {
      body: { status: 'resolved' },
    });
    assert.equal(anonymous.status, 401);
    const done = await api(relay, 'POST', '/v1/notifications/n-api-3/status', {
      bearer: sender.credential,
      body: { status: 'dismissed' },
    });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body, { id: 'n-api-3', lifecycle: 1, status: 'dismissed' });
  });
});

describe('relay sender API: the delivery rate', () => {
  let limited: InProcessRelay;
  before(async () => {
    limited = await startInProcessRelay({ deliveryRate: 3 });
  });
  after(async () => limited.cleanup());

  it('refuses more deliveries, status changes and answer links a minute than --delivery-rate with 429', async () => {
    const owner = await setUpOperator(limited);
    const busy = await pairSender(limited, owner, 'busy-box');
    for (let index = 0; index < 3; index++) {
      assert.equal((await deliver(limited, busy.credential, `n-rate-${index}`, delivered())).status, 201);
    }
    const refused = await deliver(limited, busy.credential, 'n-rate-3', delivered());
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, refusal('rate_limited', 'Too many deliveries from this installation.'));
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const status = await api(limited, 'POST', '/v1/notifications/n-rate-0/status', {
      bearer: busy.credential,
      body: { status: 'resolved' },
    });
    assert.equal(status.status, 429);
    const link = await api(limited, 'POST', '/v1/notifications/n-rate-0/answer-link', {
      bearer: busy.credential,
      body: { revision: 1 },
    });
    assert.equal(link.status, 429);
    limited.advance(61_000);
    assert.equal((await deliver(limited, busy.credential, 'n-rate-3', delivered())).status, 201);
  });
});

describe('relay sender API: answer links', () => {
  const linkOf = (id: string, body: unknown, bearer = sender.credential) =>
    api(relay, 'POST', `/v1/notifications/${id}/answer-link`, { bearer, body });

  it('gives a single-use link on its own origin that answers the request it was made for', async () => {
    assert.equal(
      (await deliver(relay, sender.credential, 'n-link-1', delivered({ revision: 1 }))).status,
      201,
    );
    const link = await linkOf('n-link-1', { revision: 1 });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.equal(link.headers.get('cache-control'), 'no-store');
    assert.match(String(link.body['url']), new RegExp(`^${relay.url}/v1/push/notifications/\\d+/answer$`));
    assert.equal(link.body['lifecycle'], 1);
    assert.equal(typeof link.body['revision'], 'number');
    assert.doesNotMatch(JSON.stringify(link.body), new RegExp(sender.credential));
    const url = new URL(String(link.body['url']));
    const answered = await api(relay, 'POST', url.pathname, {
      body: { token: link.body['token'], action: 'allow' },
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.deepEqual((answered.body['answer'] as { action: string }).action, 'allow');
    const again = await api(relay, 'POST', url.pathname, {
      body: { token: link.body['token'], action: 'deny' },
    });
    assert.notEqual(again.status, 200);
  });

  it('refuses a link for a revision it does not hold, one that cannot be answered, and a bad revision', async () => {
    assert.equal(
      (await deliver(relay, sender.credential, 'n-link-2', delivered({ revision: 2 }))).status,
      201,
    );
    const early = await linkOf('n-link-2', { revision: 3 });
    assert.equal(early.status, 404);
    assert.deepEqual(
      early.body,
      refusal('not_found', 'The relay holds no such revision of this notification yet.'),
    );
    assert.equal((await linkOf('n-link-none', { revision: 1 })).status, 404);
    const old = await linkOf('n-link-2', { revision: 1 });
    assert.equal(old.status, 409);
    assert.deepEqual(
      old.body,
      refusal(
        'conflict',
        'This notification cannot be answered in this revision: it changed, ended, was answered, has no actions, or is answered in the terminal only.',
      ),
    );
    for (const body of [{}, { revision: 0 }, { revision: 1.5 }, { revision: '2' }, [2], null]) {
      const refused = await linkOf('n-link-2', body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.deepEqual(refused.body, refusal('invalid_request', 'revision must be an integer of 1 or more.'));
    }
    assert.equal((await linkOf('n-link-2', { revision: 2 }, 'nrc_unknown')).status, 401);
    assert.equal((await linkOf('n-link-2', { revision: 2 })).status, 200);
  });
});
