import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { httpRequest } from '../support/http-request.js';

/** Every JSON answer ends with a newline, so `curl` output never runs into the shell prompt. */
describe('JSON answers', () => {
  const broker = useBroker();

  const cases: [name: string, method: string, path: (id: string) => string, body: unknown, status: number][] =
    [
      ['GET /health', 'GET', () => '/health', undefined, 200],
      ['GET /v1/health', 'GET', () => '/v1/health', undefined, 200],
      ['POST /v1/notifications', 'POST', () => '/v1/notifications', { title: 't', message: 'm' }, 201],
      ['GET /v1/notifications', 'GET', () => '/v1/notifications', undefined, 200],
      ['GET /v1/notifications/{id}', 'GET', (id) => `/v1/notifications/${id}`, undefined, 200],
      ['PATCH /v1/notifications/{id}', 'PATCH', (id) => `/v1/notifications/${id}`, { status: 'active' }, 200],
      ['a 400 validation error', 'POST', () => '/v1/notifications', { title: 't' }, 400],
      ['a 400 invalid JSON error', 'POST', () => '/v1/notifications', '{"title":', 400],
      ['a 404 unknown id', 'GET', () => '/v1/notifications/nope', undefined, 404],
      ['a 404 unknown endpoint', 'GET', () => '/v1/nothing-here', undefined, 404],
    ];

  for (const [name, method, path, body, status] of cases) {
    it(`ends the body of ${name} (${status}) with one newline after valid JSON`, async () => {
      const created = (await (
        await broker.request('POST', '/v1/notifications', { title: 'x', message: 'y' })
      ).json()) as { id: string };
      const response = await broker.request(method, path(created.id), body);
      assert.equal(response.status, status);
      const text = await response.text();
      assert.ok(
        text.endsWith('}\n') || text.endsWith(']\n'),
        `body must end with a newline: ${JSON.stringify(text)}`,
      );
      assert.ok(!text.endsWith('\n\n'));
      JSON.parse(text);
    });
  }

  it('ends the 401 answer to a missing token with a newline', async () => {
    const response = await httpRequest({
      port: broker.port,
      method: 'GET',
      path: '/v1/notifications',
      headers: { host: `127.0.0.1:${broker.port}` },
    });
    assert.equal(response.status, 401);
    assert.equal(response.body, '{"error":"unauthorized"}\n');
  });

  it('ends the answer to a request the HTTP parser refuses with a newline', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(broker.port, '127.0.0.1', () =>
        socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n'),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.ok(raw.endsWith('{"error":"malformed HTTP request"}\n'), raw);
  });
});
