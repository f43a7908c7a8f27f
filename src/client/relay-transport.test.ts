/**
 * How `notify relay` reaches a relay, against local HTTP servers: only the checked addresses get a
 * connection whatever the name resolves to, answers are read as the relay sent them (no redirects
 * followed, nothing over 64 KiB), and a silent or cancelled exchange ends with a clear error.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { relayExchange, RelayNetworkError, resolveRelayHost } from './relay-transport.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A server on one loopback address that records each request and answers with `handle`. */
async function serve(
  host: string,
  handle: (response: ServerResponse, seen: Seen) => void,
): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method!,
        url: request.url!,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handle(response, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

describe('notify relay transport: where it connects', () => {
  it('connects to the checked address, not to what the name resolves to now', async () => {
    const checked = await serve('127.0.0.2', (response) => json(response, 200, { where: 'checked' }));
    const reply = await relayExchange({
      method: 'GET',
      url: new URL(`http://localhost:${checked.port}/v1/pairings`),
      addresses: ['127.0.0.2'],
      timeoutMs: 5_000,
    });
    assert.deepEqual(reply, { status: 200, statusText: 'OK', json: { where: 'checked' } });
    assert.equal(checked.seen[0]!.headers.host, `localhost:${checked.port}`, 'the name stays the Host');
  });

  it('reaches a relay whose name resolves to an IPv6 address only', async () => {
    const checked = await serve('::1', (response) => json(response, 200, { where: 'IPv6' }));
    const reply = await relayExchange({
      method: 'GET',
      url: new URL(`http://relay.localhost:${checked.port}/v1/pairings`),
      addresses: ['::1'],
      timeoutMs: 5_000,
    });
    assert.deepEqual(reply, { status: 200, statusText: 'OK', json: { where: 'IPv6' } });
  });

  it('with no checked address it connects nowhere and says it could not connect', async () => {
    await assert.rejects(
      relayExchange({
        method: 'GET',
        url: new URL('http://relay.invalid/v1/pairings'),
        addresses: [],
        timeoutMs: 5_000,
      }),
      (error: unknown) =>
        error instanceof RelayNetworkError &&
        error.origin === 'http://relay.invalid' &&
        error.message === 'no checked address' &&
        !error.timedOut,
    );
  });

  it('resolves a name to each of its addresses once', async () => {
    const addresses = await resolveRelayHost('localhost');
    assert.ok(addresses.includes('127.0.0.1'), addresses.join());
    assert.equal(new Set(addresses).size, addresses.length);
  });
});

describe('notify relay transport: what it sends and reads', () => {
  it('sends JSON with its length and the given headers; reads status, JSON and Retry-After', async () => {
    const relay = await serve('127.0.0.1', (response) =>
      json(response, 429, { error: 'rate_limited' }, { 'retry-after': '30' }),
    );
    const body = JSON.stringify({ name: 'laptop é' });
    const reply = await relayExchange({
      method: 'POST',
      url: new URL(`http://127.0.0.1:${relay.port}/v1/pairings`),
      addresses: ['127.0.0.1'],
      headers: { authorization: 'Bearer nrp_x' },
      body,
      timeoutMs: 5_000,
    });
    assert.deepEqual(reply, {
      status: 429,
      statusText: 'Too Many Requests',
      json: { error: 'rate_limited' },
      retryAfter: '30',
    });
    const [seen] = relay.seen;
    assert.equal(seen!.method, 'POST');
    assert.equal(seen!.url, '/v1/pairings');
    assert.equal(seen!.body, body);
    assert.equal(seen!.headers['content-type'], 'application/json');
    assert.equal(seen!.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(seen!.headers.accept, 'application/json');
    assert.equal(seen!.headers.authorization, 'Bearer nrp_x');
  });

  it('a GET carries no body headers; an empty or non-JSON body reads as no JSON; the status text is the standard one when none is sent', async () => {
    const bodies = ['', '  \n', 'not json', '{"cut":'];
    const relay = await serve('127.0.0.1', (response) => {
      response.statusMessage = '';
      response.writeHead(503);
      response.end(bodies[relay.seen.length - 1]);
    });
    for (let index = 0; index < bodies.length; index++) {
      const reply = await relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
        addresses: ['127.0.0.1'],
        timeoutMs: 5_000,
      });
      assert.deepEqual(reply, { status: 503, statusText: 'Service Unavailable', json: undefined });
    }
    assert.equal(relay.seen[0]!.headers['content-type'], undefined);
    assert.equal(relay.seen[0]!.headers['content-length'], undefined);
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const relay = await serve('127.0.0.1', (response) => {
      response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      response.end();
    });
    const reply = await relayExchange({
      method: 'GET',
      url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
      addresses: ['127.0.0.1'],
      timeoutMs: 5_000,
    });
    assert.equal(reply.status, 302);
    assert.equal(relay.seen.length, 1);
  });

  it('refuses an answer over 64 KiB; one of exactly 64 KiB is read', async () => {
    const limit = 64 * 1024;
    const relay = await serve('127.0.0.1', (response, seen) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const size = seen.url === '/big' ? limit + 1 : limit;
      response.end(`"${'a'.repeat(size - 2)}"`);
    });
    const exchange = (path: string) =>
      relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${relay.port}${path}`),
        addresses: ['127.0.0.1'],
        timeoutMs: 5_000,
      });
    assert.equal(((await exchange('/fits')).json as string).length, limit - 2);
    await assert.rejects(
      exchange('/big'),
      (error: unknown) =>
        error instanceof RelayNetworkError &&
        error.message === 'the answer is larger than 64 KiB' &&
        error.origin === `http://127.0.0.1:${relay.port}`,
    );
  });
});

/** How many timers the process holds: a timer left behind keeps `notify relay` from exiting. */
function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('notify relay transport: errors and what it leaves behind', () => {
  it('a relay URL with https speaks TLS (a plain HTTP listener gets a handshake, and it fails as a network error)', async () => {
    const firstBytes: Buffer[] = [];
    const listener = createTcpServer((socket) =>
      socket.once('data', (chunk: Buffer) => {
        firstBytes.push(chunk);
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      }),
    );
    servers.push(listener as unknown as Server);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    await assert.rejects(
      relayExchange({
        method: 'GET',
        url: new URL(`https://127.0.0.1:${port}/v1/installation`),
        addresses: ['127.0.0.1'],
        timeoutMs: 5_000,
      }),
      (error: unknown) =>
        error instanceof RelayNetworkError &&
        error.name === 'RelayNetworkError' &&
        !error.timedOut &&
        error.origin === `https://127.0.0.1:${port}`,
    );
    assert.equal(firstBytes[0]?.[0], 0x16, 'the first byte is a TLS handshake record, not a plain request');
  });

  it('an answer cut off mid-body fails at once as a network error, not at the time-out', async () => {
    const relay = await serve('127.0.0.1', (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"cut":');
      setTimeout(() => response.socket?.destroy(), 50);
    });
    await assert.rejects(
      relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
        addresses: ['127.0.0.1'],
        timeoutMs: 60_000,
      }),
      (error: unknown) => error instanceof RelayNetworkError && !error.timedOut,
    );
  });

  it('reads the reason phrase the relay sent', async () => {
    const relay = await serve('127.0.0.1', (response) => {
      response.statusMessage = 'Slow Down';
      json(response, 429, {});
    });
    const reply = await relayExchange({
      method: 'GET',
      url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
      addresses: ['127.0.0.1'],
      timeoutMs: 5_000,
    });
    assert.equal(reply.statusText, 'Slow Down');
  });

  it('leaves no timer and no listener behind, answered, failed or cancelled (the CLI exits at once)', async () => {
    const answering = await serve('127.0.0.1', (response) => json(response, 200, {}));
    const silent = await serve('127.0.0.1', () => undefined);
    const signal = new AbortController().signal;
    const before = timers();
    for (let index = 0; index < 12; index++) {
      await relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${answering.port}/`),
        addresses: ['127.0.0.1'],
        timeoutMs: 60_000,
        signal,
      });
    }
    await assert.rejects(
      relayExchange({
        method: 'GET',
        url: new URL('http://127.0.0.1:1/'),
        addresses: ['127.0.0.1'],
        timeoutMs: 60_000,
        signal,
      }),
      RelayNetworkError,
    );
    const controller = new AbortController();
    const cancelled = relayExchange({
      method: 'GET',
      url: new URL(`http://127.0.0.1:${silent.port}/`),
      addresses: ['127.0.0.1'],
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    while (silent.seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('interrupted'));
    await assert.rejects(cancelled, /interrupted/);
    assert.equal(timers(), before, 'every time-out timer is cleared');
    assert.equal(getEventListeners(signal, 'abort').length, 0, 'one Ctrl+C signal serves many requests');
  });
});

describe('notify relay transport: silence and cancelling', () => {
  it('a relay that never answers ends the exchange at the time-out, as a time-out', async () => {
    const relay = await serve('127.0.0.1', () => undefined);
    await assert.rejects(
      relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
        addresses: ['127.0.0.1'],
        timeoutMs: 200,
      }),
      (error: unknown) =>
        error instanceof RelayNetworkError &&
        error.timedOut &&
        error.message === 'no answer before the time-out',
    );
  });

  it('Ctrl+C ends it with the reason given, before or during the exchange', async () => {
    const relay = await serve('127.0.0.1', () => undefined);
    const exchange = (signal: AbortSignal) =>
      relayExchange({
        method: 'GET',
        url: new URL(`http://127.0.0.1:${relay.port}/v1/installation`),
        addresses: ['127.0.0.1'],
        timeoutMs: 60_000,
        signal,
      });
    const reason = new Error('interrupted');
    await assert.rejects(exchange(AbortSignal.abort(reason)), (error) => error === reason);
    assert.equal(relay.seen.length, 0, 'nothing is sent once cancelled');
    const controller = new AbortController();
    const pending = exchange(controller.signal);
    for (let waited = 0; relay.seen.length === 0; waited += 10) {
      assert.ok(waited < 5_000, 'the request never reached the relay');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
  });
});
