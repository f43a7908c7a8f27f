/**
 * The sender's API when an installation's storage on the relay is full (docs/relay-protocol.md,
 * 507 storage_full). Its own file: filling 1000 notifications takes seconds, which the other API
 * tests need not wait for. The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkDelivered } from '../../src/relay-server/domain/delivery.js';
import { deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

describe('relay sender API: a full installation', () => {
  let full: InProcessRelay;
  before(async () => {
    full = await startInProcessRelay();
  });
  after(async () => full.cleanup());

  it('refuses a new notification with 507 when the installation holds 1000 active ones, and still takes an update', async () => {
    const owner = await setUpOperator(full);
    const busy = await pairSender(full, owner, 'full-box');
    const installation = (await full.context.relay.authenticate(busy.credential))!;
    const checked = checkDelivered(delivered());
    assert.ok(checked.ok);
    // Filled through the relay itself, not 1000 HTTP requests: the refusal below is the API's.
    for (let index = 0; index < 1000; index++) {
      const answer = await full.context.relay.deliver(installation, `n-full-${index}`, checked.value, {
        key: `key-full-${index}`,
        requestHash: `hash-${index}`,
      });
      assert.notEqual(typeof answer, 'string');
    }
    const refused = await deliver(full, busy.credential, 'n-full-more', delivered());
    assert.equal(refused.status, 507);
    assert.deepEqual(refused.body, {
      error: 'storage_full',
      error_description:
        'This installation has 1000 notifications on the relay and all of them are active; resolve or dismiss some, then deliver again.',
    });
    const update = await deliver(
      full,
      busy.credential,
      'n-full-0',
      delivered({ title: 'Updated', updated_at: '2026-11-25T17:43:00.000Z' }),
    );
    assert.equal(update.status, 200, JSON.stringify(update.body));
  });
});
