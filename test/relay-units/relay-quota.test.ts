/**
 * The relay's storage limit per installation (docs/relay-protocol.md, 507 storage_full): a sender with
 * 1000 active notifications on the relay cannot add another until it ends some. The relay's server runs
 * in this process (in-process-relay.ts), its delivery rate raised so the test fills the store quickly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

let relay: InProcessRelay;
let credential: string;

before(async () => {
  relay = await startInProcessRelay({ deliveryRate: 5000 });
  credential = (await pairSender(relay, await setUpOperator(relay), 'full-box')).credential;
});
after(async () => relay.cleanup());

describe('relay core: storage per installation', () => {
  it('refuses a 1001st active notification with 507 and stores nothing, until the sender ends one', async () => {
    for (let start = 0; start < 1000; start += 25) {
      const statuses = await Promise.all(
        Array.from(
          { length: 25 },
          async (_, index) =>
            (await deliver(relay, credential, `n-full-${start + index}`, delivered())).status,
        ),
      );
      assert.deepEqual(new Set(statuses), new Set([201]));
    }
    const refused = await deliver(relay, credential, 'n-too-many', delivered());
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body['error'], 'storage_full');
    const unknown = await api(relay, 'POST', '/v1/notifications/n-too-many/status', {
      bearer: credential,
      body: { status: 'dismissed' },
    });
    assert.equal(unknown.status, 404, 'the refused one was not stored');

    const ended = await api(relay, 'POST', '/v1/notifications/n-full-0/status', {
      bearer: credential,
      body: { status: 'resolved' },
    });
    assert.equal(ended.status, 200);
    assert.equal((await deliver(relay, credential, 'n-too-many', delivered())).status, 201);
  });
});
