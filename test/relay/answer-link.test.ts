import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { api, deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';

/**
 * The relay's answer links (docs/relay-protocol.md "Answer links"): a sender asks for the single-use
 * capability of one revision of its request, and the link answers once, as a push's answer does.
 */
describe('relay answer links', { timeout: 60_000 }, () => {
  let relay: RelayProcess;
  let credential: string;

  before(async () => {
    relay = await startRelay();
    ({ credential } = await pairSender(relay, await setUpOperator(relay)));
  });
  after(() => relay.cleanup());

  const ask = (id: string, revision: unknown, bearer = credential) =>
    api(relay, 'POST', `/v1/notifications/${id}/answer-link`, { bearer, body: { revision } });

  it('hands out a link for the revision the relay holds, which answers once', async () => {
    assert.equal((await deliver(relay, credential, 'link-1', delivered({ revision: 1 }))).status, 201);
    const link = await ask('link-1', 1);
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.equal(link.headers.get('cache-control'), 'no-store');
    assert.match(link.body['token'] as string, /^nrt_[A-Za-z0-9_-]{43}$/);
    const path = new URL(link.body['url'] as string).pathname;
    assert.match(path, /^\/v1\/push\/notifications\/\d+\/answer$/);

    const first = await api(relay, 'POST', path, { body: { action: 'deny', token: link.body['token'] } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual((first.body['answer'] as { action: string }).action, 'deny');
    const second = await api(relay, 'POST', path, { body: { action: 'allow', token: link.body['token'] } });
    assert.equal(second.status, 409);
    assert.equal((await ask('link-1', 1)).status, 409, 'no link once it is answered');
  });

  it('says "not yet" for a revision it does not hold, and refuses one it has replaced', async () => {
    assert.equal((await ask('link-unknown', 1)).status, 404);
    assert.equal((await deliver(relay, credential, 'link-2', delivered({ revision: 1 }))).status, 201);
    const old = await ask('link-2', 1);
    assert.equal((await ask('link-2', 2)).status, 404, 'revision 2 has not reached the relay yet');
    const changed = delivered({ revision: 2, message: 'npm publish --tag next' });
    assert.equal(
      (await deliver(relay, credential, 'link-2', { ...changed, updated_at: '2026-11-25T17:43:00.000Z' }))
        .status,
      200,
    );
    assert.equal((await ask('link-2', 1)).status, 409, 'revision 1 was replaced');
    const stale = await api(relay, 'POST', new URL(old.body['url'] as string).pathname, {
      body: { action: 'allow', token: old.body['token'] },
    });
    assert.equal(stale.status, 409, 'the link of revision 1 answers nothing');
    assert.equal((await ask('link-2', 2)).status, 200);
  });

  it('refuses a bad revision, a request without actions and a stranger', async () => {
    assert.equal((await ask('link-1', 'one')).status, 400);
    assert.equal((await ask('link-1', 0)).status, 400);
    await deliver(relay, credential, 'link-3', delivered({ revision: 1, actions: [] }));
    assert.equal((await ask('link-3', 1)).status, 409);
    assert.equal((await ask('link-3', 1, 'nrc_not-a-credential')).status, 401);
  });
});
