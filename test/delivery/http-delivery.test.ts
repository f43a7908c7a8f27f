import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createProxy } from 'proxy';
import { sendHttp, type HttpAnswer, type OutboundRequest } from '../../src/delivery/http-delivery.js';
import { runNode } from '../support/run-node.js';
import { makeThrowawayCert, type ThrowawayCert } from '../support/throwaway-cert.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

const SENDER = fileURLToPath(new URL('./support/send-http.js', import.meta.url));

const signal = () => AbortSignal.timeout(5000);

describe('sendHttp redirects', () => {
  let first: HttpReceiver;
  let other: HttpReceiver;
  before(async () => {
    first = await startHttpReceiver();
    other = await startHttpReceiver();
  });
  after(async () => {
    await first.close();
    await other.close();
  });

  it('rejects with redirect_cross_host and sends nothing there when redirected to another host', async () => {
    first.answer({ status: 307, headers: { location: `${other.url}/steal?token=abc` } });
    const answer = await sendHttp(
      { method: 'POST', url: `${first.url}/hook`, headers: { authorization: 'Bearer s3cret' }, body: '{}' },
      signal(),
    );
    assert.deepEqual(answer.result, { outcome: 'reject', reason: 'redirect_cross_host', status: 307 });
    assert.equal(other.requests.length, 0);
  });

  it('follows a redirect within the same origin, keeping method and body', async () => {
    first.answer((request) =>
      request.url === '/old' ? { status: 308, headers: { location: '/new' } } : { status: 200, body: 'ok' },
    );
    const before = first.requests.length;
    const answer = await sendHttp({ method: 'POST', url: `${first.url}/old`, body: '{"a":1}' }, signal());
    assert.deepEqual(answer, { result: { outcome: 'delivered', status: 200 }, body: 'ok' });
    const seen = first.requests.slice(before);
    assert.deepEqual(
      seen.map((r) => [r.method, r.url, r.body]),
      [
        ['POST', '/old', '{"a":1}'],
        ['POST', '/new', '{"a":1}'],
      ],
    );
  });

  it('rejects with too_many_redirects when a redirect loops', async () => {
    first.answer({ status: 302, headers: { location: '/loop' } });
    const answer = await sendHttp({ method: 'GET', url: `${first.url}/loop` }, signal());
    assert.deepEqual(answer.result, { outcome: 'reject', reason: 'too_many_redirects' });
  });

  it('rejects with invalid_url when the URL is not http(s), without any request', async () => {
    const answer = await sendHttp({ method: 'GET', url: 'file:///etc/passwd' }, signal());
    assert.deepEqual(answer.result, { outcome: 'reject', reason: 'invalid_url' });
  });
});

describe('sendHttp through a proxy from the environment', () => {
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
  let receiver: HttpReceiver;
  let proxy: Server;
  let proxied = 0;
  before(async () => {
    receiver = await startHttpReceiver({ status: 202 });
    proxy = createProxy(createServer());
    proxy.on('request', () => (proxied += 1));
    proxy.on('connect', () => (proxied += 1));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await receiver.close();
  });

  it('goes through HTTP_PROXY when it is set', async () => {
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    process.env.NO_PROXY = '';
    const before = proxied;
    const answer = await sendHttp({ method: 'POST', url: `${receiver.url}/via-proxy`, body: 'x' }, signal());
    assert.equal(answer.result.outcome, 'delivered');
    assert.ok(proxied > before, 'the proxy saw no request');
    assert.equal(receiver.requests.at(-1)?.url, '/via-proxy');
  });

  it('goes direct when NO_PROXY names the host', async () => {
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    process.env.NO_PROXY = '127.0.0.1';
    const before = proxied;
    const answer = await sendHttp({ method: 'POST', url: `${receiver.url}/direct`, body: 'x' }, signal());
    assert.equal(answer.result.outcome, 'delivered');
    assert.equal(proxied, before, 'the request went through the proxy');
  });

  it('retries with connection_refused when the proxy is down', async () => {
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    process.env.NO_PROXY = '';
    const answer = await sendHttp({ method: 'POST', url: `${receiver.url}/x`, body: 'x' }, signal());
    assert.deepEqual(answer.result, { outcome: 'retry', reason: 'connection_refused' });
  });
});

describe('sendHttp to an https target through HTTPS_PROXY (a CONNECT tunnel)', () => {
  let certificate: ThrowawayCert;
  let receiver: HttpReceiver;
  let proxy: Server;
  const connects: string[] = [];
  const forwarded: string[] = [];
  before(async () => {
    certificate = makeThrowawayCert();
    receiver = await startHttpReceiver({ status: 200, body: 'accepted' }, certificate);
    proxy = createProxy(createServer());
    proxy.on('connect', (request: IncomingMessage) => connects.push(request.url ?? ''));
    proxy.on('request', (request: IncomingMessage) => forwarded.push(request.url ?? ''));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await receiver.close();
    certificate.remove();
  });

  /**
   * Sends from a child Node whose environment is exactly this (ours is left alone), so the test CA can
   * be trusted the way a user would: NODE_EXTRA_CA_CERTS, read only at process start.
   */
  async function send(outbound: OutboundRequest, env: NodeJS.ProcessEnv): Promise<HttpAnswer> {
    const run = await runNode(SENDER, [], {
      env: { PATH: process.env.PATH, NOTIFY_TEST_OUTBOUND: JSON.stringify(outbound), ...env },
    });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as HttpAnswer;
  }

  const proxyUrl = () => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const hostPort = () => `127.0.0.1:${receiver.port}`;

  // http-delivery.ts promises the lower-case forms too, as curl reads them.
  for (const variable of ['HTTPS_PROXY', 'https_proxy']) {
    it(`delivers the body through a CONNECT to host:port when ${variable} is set`, async () => {
      const before = {
        connects: connects.length,
        forwarded: forwarded.length,
        received: receiver.requests.length,
      };
      const body = JSON.stringify({ via: variable });
      const answer = await send(
        {
          method: 'POST',
          url: `${receiver.url}/hook/${variable}`,
          headers: { 'content-type': 'application/json' },
          body,
        },
        { [variable]: proxyUrl(), NO_PROXY: '', NODE_EXTRA_CA_CERTS: certificate.certFile },
      );
      assert.deepEqual(answer, { result: { outcome: 'delivered', status: 200 }, body: 'accepted' });
      assert.deepEqual(
        receiver.requests.slice(before.received).map((r) => [r.method, r.url, r.body]),
        [['POST', `/hook/${variable}`, body]],
      );
      assert.deepEqual(connects.slice(before.connects), [hostPort()]);
      assert.deepEqual(forwarded.slice(before.forwarded), [], 'the proxy was sent the request in the clear');
    });
  }

  it('still checks the target certificate inside the tunnel: retries with tls_error when it is not trusted', async () => {
    const before = { connects: connects.length, received: receiver.requests.length };
    const answer = await send(
      { method: 'POST', url: `${receiver.url}/hook/untrusted`, body: 'secret' },
      { HTTPS_PROXY: proxyUrl(), NO_PROXY: '' },
    );
    assert.deepEqual(answer, { result: { outcome: 'retry', reason: 'tls_error' } });
    assert.deepEqual(connects.slice(before.connects), [hostPort()]);
    assert.equal(receiver.requests.length, before.received, 'the receiver got the request');
  });
});
