import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { httpRequest } from '../support/http-request.js';
import { buildRequest, rawRequest } from '../robustness/support.js';

const BAD_PATH = 'the request path is not valid: "%" must be followed by two hexadecimal digits';
const HOST_REFUSED = (port: number) =>
  `Host header must be 127.0.0.1:${port}, localhost:${port} or [::1]:${port}; other hosts are refused to prevent DNS rebinding`;

describe('the order of the request checks', () => {
  const broker = useBroker();
  const send = (path: string, headers: Record<string, string>) =>
    httpRequest({ port: broker.port, method: 'GET', path, headers });

  /** Every bad URL meets the Host check, then the token check, before its own 400. */
  const TABLE: [name: string, path: string, host: 'ours' | 'foreign', token: boolean, status: number][] = [
    ['a bad /v1 path with a foreign Host', '/v1/%zz?secret=q1', 'foreign', true, 421],
    ['a bad path outside /v1 with a foreign Host', '/%zz?secret=q2', 'foreign', false, 421],
    ['a bad /v1 path without a token', '/v1/notifications/%zz?secret=q3', 'ours', false, 401],
    ['a bad /v1 path with the token', '/v1/notifications/%zz?secret=q4', 'ours', true, 400],
    ['a bad path outside /v1 without a token', '/%zz?secret=q5', 'ours', false, 400],
  ];
  for (const [name, path, host, token, status] of TABLE) {
    it(`answers ${name} with ${status}, never echoing the query string`, async () => {
      const response = await send(path, {
        host: host === 'ours' ? `127.0.0.1:${broker.port}` : 'evil.example',
        ...(token && { authorization: `Bearer ${broker.token}` }),
      });
      assert.equal(response.status, status);
      const expected = { 421: HOST_REFUSED(broker.port), 401: 'unauthorized', 400: BAD_PATH }[status];
      assert.deepEqual(JSON.parse(response.body), { error: expected });
      assert.equal(response.body.includes('secret'), false);
    });
  }

  it('answers an id past 2048 characters with 414 after the token check, without echoing it', async () => {
    const path = `/v1/notifications/${'a'.repeat(2049)}?secret=q6`;
    const anonymous = await send(path, { host: `127.0.0.1:${broker.port}` });
    assert.equal(anonymous.status, 401);
    const response = await send(path, {
      host: `127.0.0.1:${broker.port}`,
      authorization: `Bearer ${broker.token}`,
    });
    assert.equal(response.status, 414);
    assert.deepEqual(JSON.parse(response.body), {
      error: 'the request path is too long: a path segment may hold at most 2048 characters',
    });
  });

  it('refuses two Authorization headers with 400, even when both carry the token', async () => {
    const token = `Bearer ${broker.token}`;
    for (const [first, second] of [
      [token, token],
      [token, 'Bearer wrong'],
      ['Bearer wrong', token],
    ] as const) {
      const request = buildRequest(broker, 'GET', '/v1/health', [
        ['Authorization', first],
        ['Authorization', second],
      ]);
      const response = await rawRequest(broker.port, request);
      assert.equal(response.status, 400, `${first} + ${second}`);
      assert.deepEqual(JSON.parse(response.body.toString()), {
        error: 'only one Authorization header is allowed',
      });
    }
  });

  it('names the Bearer scheme in WWW-Authenticate on every 401', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${broker.token}` },
    ];
    for (const headers of variants) {
      const response = await fetch(`${broker.baseUrl}/v1/notifications`, { headers });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    }
  });

  it('sends no WWW-Authenticate on answers other than 401', async () => {
    const response = await broker.request('GET', '/v1/notifications/none');
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('www-authenticate'), null);
  });
});
