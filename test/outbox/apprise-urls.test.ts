import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';

const HINT =
  'not an Apprise URL: each is scheme://..., e.g. tgram://bottoken/ChatID, separated by spaces or commas';

describe('apprise URL lists are checked URL by URL when saved', () => {
  const broker = useBroker();
  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const create = (url: string) => json('POST', '/v1/providers', { kind: 'apprise', settings: { url } });

  it('refuses a list with one unparseable URL, naming its place and never its text', async () => {
    const cases: [string, string][] = [
      ['json://127.0.0.1:9/x tok3n-s3cret', `settings.url: URL 2 of 2 is ${HINT}`],
      [
        'json://127.0.0.1:9/x, mailto://a:b@example.com ntfy:/missing-slash',
        `settings.url: URL 3 of 3 is ${HINT}`,
      ],
      ['tok3n-s3cret', `settings.url: it is ${HINT}`],
      ['x://short-scheme', `settings.url: it is ${HINT}`],
      ['json://', `settings.url: it is ${HINT}`],
      ['  ,  ', `settings.url: it is ${HINT}`],
    ];
    for (const [url, error] of cases) {
      const refused = await create(url);
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body!['error'], error);
      assert.ok(!JSON.stringify(refused.body).includes('s3cret'));
    }
    assert.deepEqual((await json('GET', '/v1/providers')).body, []);
  });

  it('takes lists apprise parses, separated by spaces or commas, commas inside a URL included', async () => {
    const created = await create(
      'json://127.0.0.1:9/x mailto://a:b@example.com/?to=c@example.com,d@example.com, tgram://123:abc/456',
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const updated = await json('PATCH', `/v1/providers/${created.body!['id']}`, {
      settings: { url: 'json://127.0.0.1:9/x notaurl' },
    });
    assert.equal(updated.status, 400);
    assert.equal(updated.body!['error'], `settings.url: URL 2 of 2 is ${HINT}`);
  });
});
