/**
 * Agent tokens (issue 33) against the real broker built in this process (test/support/in-process-broker.ts),
 * whose clock stands still until the test moves it: what an agent elsewhere may do with its token, when
 * the token stops working, and what the owner sees of it. test/remote/agent-tokens.test.ts covers the
 * same through notifyctl and the notifyd process.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { formatTimestamp } from '../../src/domain/notification.js';
import { openDatabase } from '../../src/store/database.js';
import { AgentTokenStore } from '../../src/store/agent-token-store.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { createTempHome } from '../support/broker-process.js';
import {
  startInProcessBroker,
  useInProcessBroker,
  type InProcessBroker,
} from '../support/in-process-broker.js';
import { signIn } from '../support/web-session.js';

const REFUSAL = { error: 'this token may only raise and follow its own notifications' };

interface TokenView {
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

async function createToken(broker: InProcessBroker, body: unknown): Promise<TokenView & { token: string }> {
  const response = await broker.request('POST', '/v1/tokens', body);
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as TokenView & { token: string };
}

function as(broker: InProcessBroker, token: string) {
  return (method: string, path: string, body?: unknown) =>
    broker.request(method, path, body, { authorization: `Bearer ${token}` });
}

async function tokenNamed(broker: InProcessBroker, name: string): Promise<TokenView | undefined> {
  // Any write of the owner's runs after every write queued before it: the last use is stored by then.
  await broker.request('POST', '/v1/notifications', { title: 'Flush', message: 'the write queue' });
  const { tokens } = (await (await broker.request('GET', '/v1/tokens')).json()) as { tokens: TokenView[] };
  return tokens.find((token) => token.name === name);
}

describe('agent tokens in the broker: made, used, expired, revoked', () => {
  const broker = useInProcessBroker({ frozenClock: true });

  it('shows a new token once, lists it by name with its times, and never logs its value', async () => {
    const made = await createToken(broker, { name: 'api-box', expiresInSeconds: 3600 });
    assert.match(made.token, /^nfa_[A-Za-z0-9_-]{43}$/);
    const created = broker.now();
    assert.deepEqual(
      { ...made, token: undefined },
      {
        name: 'api-box',
        createdAt: formatTimestamp(created),
        lastUsedAt: null,
        expiresAt: formatTimestamp(created + 3_600_000),
        token: undefined,
      },
    );
    const forever = await createToken(broker, { name: 'forever' });
    assert.equal(forever.expiresAt, null);
    assert.notEqual(forever.token, made.token);

    const listed = await (await broker.request('GET', '/v1/tokens')).text();
    assert.equal(listed.includes(made.token), false, 'the list never holds a value');
    assert.deepEqual(await tokenNamed(broker, 'api-box'), {
      name: 'api-box',
      createdAt: formatTimestamp(created),
      lastUsedAt: null,
      expiresAt: formatTimestamp(created + 3_600_000),
    });
    await waitForLog(broker.home, 'tokens: agent token "api-box" created');
    assert.equal(readLog(broker.home).includes(made.token.slice(4)), false);
  });

  it('works until the second it expires, then is refused like a token never made', async () => {
    const { token } = await createToken(broker, { name: 'short', expiresInSeconds: 60 });
    const agent = as(broker, token);
    broker.advance(59_999);
    assert.equal((await agent('GET', '/v1/health')).status, 200, 'a millisecond before its end');
    broker.advance(1);
    const refused = await agent('GET', '/v1/health');
    assert.equal(refused.status, 401, 'at its end');
    assert.deepEqual(await refused.json(), { error: 'unauthorized' });
    assert.ok(await tokenNamed(broker, 'short'), 'an expired token is still listed, so a person sees why');
  });

  it('lets a new token take the name of an expired one, but never of a live one', async () => {
    const old = await createToken(broker, { name: 'reused', expiresInSeconds: 60 });
    const twice = await broker.request('POST', '/v1/tokens', { name: 'reused' });
    assert.equal(twice.status, 409);
    assert.deepEqual(await twice.json(), {
      error: 'a token named "reused" exists already; revoke it first (notifyctl tokens revoke reused)',
    });
    assert.equal((await as(broker, old.token)('GET', '/v1/health')).status, 200, 'the live one still works');

    broker.advance(60_000);
    const fresh = await createToken(broker, { name: 'reused' });
    assert.equal((await as(broker, fresh.token)('GET', '/v1/health')).status, 200);
    assert.equal((await as(broker, old.token)('GET', '/v1/health')).status, 401);
    assert.equal((await tokenNamed(broker, 'reused'))?.expiresAt, null, 'the new one replaced the old');
  });

  it('records the last use at most once a minute', async () => {
    const { token } = await createToken(broker, { name: 'busy' });
    const agent = as(broker, token);
    const first = broker.now();
    assert.equal((await agent('GET', '/v1/health')).status, 200);
    assert.equal((await tokenNamed(broker, 'busy'))?.lastUsedAt, formatTimestamp(first));
    broker.advance(59_999);
    assert.equal((await agent('GET', '/v1/health')).status, 200);
    assert.equal((await tokenNamed(broker, 'busy'))?.lastUsedAt, formatTimestamp(first), 'within the minute');
    broker.advance(1);
    assert.equal((await agent('GET', '/v1/health')).status, 200);
    assert.equal((await tokenNamed(broker, 'busy'))?.lastUsedAt, formatTimestamp(broker.now()));
  });

  it('refuses, once revoked, the token and a second revocation; logs the revocation by name', async () => {
    const { token } = await createToken(broker, { name: 'gone' });
    const revoked = await broker.request('DELETE', '/v1/tokens/gone');
    assert.equal(revoked.status, 204);
    assert.equal((await as(broker, token)('GET', '/v1/health')).status, 401);
    assert.equal(await tokenNamed(broker, 'gone'), undefined);
    const again = await broker.request('DELETE', '/v1/tokens/gone');
    assert.equal(again.status, 404);
    assert.deepEqual(await again.json(), { error: 'token "gone" not found' });
    await waitForLog(broker.home, 'tokens: agent token "gone" revoked');
  });

  it('refuses a value of the right shape that no token has, and the owner token is no agent token', async () => {
    const unknown = `nfa_${'A'.repeat(43)}`;
    for (const token of [unknown, `nfa_${'A'.repeat(44)}`, broker.token.slice(0, 20)]) {
      const response = await as(broker, token)('GET', '/v1/health');
      assert.equal(response.status, 401, token);
    }
  });
});

describe('agent tokens in the broker: only their own notifications', () => {
  const broker = useInProcessBroker();

  it('raises and follows its own, is refused everything else with 403, and a missing one is 404', async () => {
    const agent = as(broker, (await createToken(broker, { name: 'box-a' })).token);
    const other = as(broker, (await createToken(broker, { name: 'box-b' })).token);
    const created = await agent('POST', '/v1/notifications', { title: 'Mine', message: 'from box-a' });
    assert.equal(created.status, 201);
    const mine = (await created.json()) as { id: string; raisedBy?: string };
    assert.equal(mine.raisedBy, 'box-a');
    const owners = (await (
      await broker.request('POST', '/v1/notifications', { title: 'Owner', message: 'x' })
    ).json()) as { id: string };
    const theirs = (await (
      await other('POST', '/v1/notifications', { title: 'Theirs', message: 'from box-b' })
    ).json()) as { id: string };

    assert.equal((await agent('GET', `/v1/notifications/${mine.id}`)).status, 200);
    assert.equal((await agent('GET', '/v1/health')).status, 200, "a route for any agent's use");
    for (const [method, path, body] of [
      ['GET', `/v1/notifications/${owners.id}`, undefined],
      ['GET', `/v1/notifications/${theirs.id}`, undefined],
      ['PATCH', `/v1/notifications/${theirs.id}`, { status: 'resolved' }],
      ['POST', `/v1/notifications/${mine.id}/answer`, { action: 'allow' }],
      ['GET', '/v1/settings', undefined],
      ['GET', '/v1/tokens', undefined],
      ['GET', '/v1/no-such-route', undefined],
      ['GET', '/v1/notifications/%zz', undefined],
    ] as const) {
      const response = await agent(method, path, body);
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.deepEqual(await response.json(), REFUSAL, `${method} ${path}`);
    }
    const missing = await agent('GET', '/v1/notifications/no-such-id');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'notification not found' });
    const still = (await (await broker.request('GET', `/v1/notifications/${theirs.id}`)).json()) as {
      status: string;
    };
    assert.equal(still.status, 'active', "the refused change left box-b's notification as it was");
  });

  it('narrows only agent tokens: the owner token and the web page reach every route', async () => {
    const agent = as(broker, (await createToken(broker, { name: 'box-c' })).token);
    const { id } = (await (
      await agent('POST', '/v1/notifications', { title: 'Agent', message: 'x' })
    ).json()) as { id: string };
    const secret = await signIn(broker);
    for (const headers of [{}, { authorization: `Session ${secret}` }] as Record<string, string>[]) {
      for (const path of [`/v1/notifications/${id}`, '/v1/settings']) {
        const response = await broker.request('GET', path, undefined, headers);
        assert.equal(response.status, 200, `${path} ${JSON.stringify(headers)}`);
      }
    }
  });
});

describe('agent tokens kept from before', () => {
  it('accepts, after a restart, a token an earlier notifyd stored (as its SHA-256 in hex)', async () => {
    const home = createTempHome();
    const token = `nfa_${'k'.repeat(43)}`;
    const db = openDatabase(home.databaseFile);
    new AgentTokenStore(db).insert({
      name: 'kept',
      tokenHash: createHash('sha256').update(token).digest('hex'),
      createdAt: Date.now() - 86_400_000,
      lastUsedAt: null,
      expiresAt: null,
    });
    db.close();
    const broker = await startInProcessBroker({ home });
    try {
      const created = await as(broker, token)('POST', '/v1/notifications', {
        title: 'Still here',
        message: 'x',
      });
      assert.equal(created.status, 201, await created.clone().text());
      assert.equal(((await created.json()) as { raisedBy?: string }).raisedBy, 'kept');
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
