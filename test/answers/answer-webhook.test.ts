import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

describe('answers: the webhook event shape, version 2', () => {
  const broker = useBroker();
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  after(() => receiver.close());

  it('sends the actions with the notification and its answer as notification.answered', async () => {
    const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
    const provider = await json('POST', '/v1/providers', {
      kind: 'webhook',
      settings: { url: `${receiver.url}/hooks` },
      enabled: true,
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    const route = await json('POST', '/v1/routes', {
      providerId: provider.body!['id'],
      minimumPriority: 'low',
      includeMessage: false,
      enabled: true,
    });
    assert.equal(route.status, 201, JSON.stringify(route.body));
    for (const path of [`/v1/providers/${provider.body!['id']}`, `/v1/routes/${route.body!['id']}`])
      assert.equal((await json('POST', `${path}/enable`)).status, 200);
    const actions = [
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'Deny' },
    ];
    const created = await json('POST', '/v1/notifications', { title: 'Run?', message: 'rm -rf x', actions });
    const id = created.body!['id'] as string;
    await waitFor(() => receiver.received.length === 1, 'the send');
    const answered = await json('POST', `/v1/notifications/${id}/answer`, { action: 'deny', surface: 'web' });
    assert.equal(answered.status, 200);
    await waitFor(() => receiver.received.length === 2, 'the answer');
    const [send, answer] = receiver.received.map((request) => request.body as Body);
    assert.deepEqual(
      { version: send!['version'], type: send!['type'], actions: send!['data'].actions },
      { version: 2, type: 'notification.created', actions },
    );
    assert.equal(answer!['version'], 2);
    assert.equal(answer!['type'], 'notification.answered');
    assert.equal(answer!['data'].status, 'resolved');
    assert.deepEqual(answer!['data'].answer, answered.body!['answer']);
    // The route leaves the message at home: the answer does not carry it out either.
    assert.equal(JSON.stringify(receiver.received).includes('rm -rf x'), false);
  });
});
