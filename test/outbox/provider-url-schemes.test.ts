import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';

describe('provider URLs are http or https', () => {
  const broker = useBroker();
  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const refused = [
    'file:///etc/passwd',
    'data:text/plain,hello',
    'gopher://example.com/1',
    'ftp://example.com/',
  ];

  it('refuses another scheme at create, naming the setting and the scheme', async () => {
    for (const url of refused) {
      const webhook = await json('POST', '/v1/providers', { kind: 'webhook', settings: { url } });
      assert.equal(webhook.status, 400, url);
      assert.equal(
        webhook.body!['error'],
        `settings.url must be an http or https URL, e.g. https://example.com/path (not ${new URL(url).protocol})`,
      );
      const gotify = await json('POST', '/v1/providers', {
        kind: 'gotify',
        settings: { serverUrl: url, appToken: 'A1b2' },
      });
      assert.equal(gotify.status, 400, url);
      assert.match(gotify.body!['error'], /^settings\.serverUrl must be an http or https URL/);
    }
    assert.deepEqual((await json('GET', '/v1/providers')).body, []);
  });

  it('refuses another scheme at update, leaving the provider as it was', async () => {
    const created = await json('POST', '/v1/providers', {
      kind: 'ntfy',
      settings: { serverUrl: 'http://127.0.0.1:9', topic: 'alerts-x7Qv93kLw2' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body!['id'] as string;
    for (const url of refused) {
      const updated = await json('PATCH', `/v1/providers/${id}`, { settings: { serverUrl: url } });
      assert.equal(updated.status, 400, url);
      assert.match(updated.body!['error'], /^settings\.serverUrl must be an http or https URL/);
      const clicked = await json('PATCH', `/v1/providers/${id}`, { settings: { clickUrl: url } });
      assert.equal(clicked.status, 400, url);
    }
    const provider = await json('GET', `/v1/providers/${id}`);
    assert.equal(provider.body!['settings']['serverUrl'], 'http://127.0.0.1:9');
    assert.equal(provider.body!['settings']['clickUrl'], undefined);
  });
});
