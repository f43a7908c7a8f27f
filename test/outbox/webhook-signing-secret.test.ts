import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';

const REFUSAL =
  'settings.signingSecret: must be a Standard Webhooks secret: whsec_ followed by base64, as your receiver shows it';

describe("a webhook's signingSecret is checked when saved, not first at delivery", () => {
  const broker = useBroker();
  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const create = (signingSecret: string) =>
    json('POST', '/v1/providers', {
      kind: 'webhook',
      settings: { url: 'http://127.0.0.1:9/hook', signingSecret },
    });

  it('refuses a secret that is not whsec_ and base64, never echoing it, and creates nothing', async () => {
    for (const secret of ['my-s3cret-password', 'whsec_not base64!', 'whsec_']) {
      const refused = await create(secret);
      assert.equal(refused.status, 400, secret);
      assert.equal(refused.body!['error'], REFUSAL);
      assert.ok(!JSON.stringify(refused.body).includes('s3cret'));
    }
    assert.deepEqual((await json('GET', '/v1/providers')).body, []);
  });

  it('takes a Standard Webhooks secret, and refuses a bad one on update', async () => {
    const created = await create(`whsec_${randomBytes(24).toString('base64')}`);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const updated = await json('PATCH', `/v1/providers/${created.body!['id'] as string}`, {
      settings: { signingSecret: 'plain words' },
    });
    assert.equal(updated.status, 400);
    assert.equal(updated.body!['error'], REFUSAL);
  });
});
