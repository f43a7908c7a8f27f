/**
 * The options `notify-relay` passes to its server (src/relay-server/main.ts): `--trust-proxy` (which
 * client address the per-address limits count), the per-address connection limit, `--request-timeout`
 * against slow clients, and `--tls-cert`/`--tls-key`. The relay's server runs in this process
 * (in-process-relay.ts); timeouts are a few hundred milliseconds so no test waits long.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { MAX_CONNECTIONS_PER_ADDRESS } from '../../src/relay-server/http/connection-limit.js';
import { api } from '../support/relay-web.js';
import { makeThrowawayCert, type ThrowawayCert } from '../support/throwaway-cert.js';
import { waitFor, within } from '../support/wait-for.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

/** Pairing requests allowed per client address a minute (api-routes.ts). */
const PAIRINGS_PER_MINUTE = 10;

/** The statuses of `count` pairing requests, each sent with the X-Forwarded-For the function gives. */
async function pairingStatuses(
  relay: InProcessRelay,
  count: number,
  forwardedFor: (attempt: number) => string,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < count; attempt++) {
    const response = await api(relay, 'POST', '/v1/pairings', {
      body: { sender_name: 'laptop' },
      headers: { 'x-forwarded-for': forwardedFor(attempt) },
    });
    statuses.push(response.status);
  }
  return statuses;
}

const LIMITED = [...Array<number>(PAIRINGS_PER_MINUTE).fill(201), 429];

/** A raw connection from `localAddress`, open once the promise resolves; `ended` gives what the relay sent before closing it. */
async function openConnection(
  relay: InProcessRelay,
  localAddress = '127.0.0.1',
): Promise<{ socket: Socket; ended: Promise<string> }> {
  const socket = connectTcp({ host: '127.0.0.1', port: relay.port, localAddress });
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, ended };
}

/** The status of a GET sent from `localAddress` on a connection of its own. */
function getFrom(relay: InProcessRelay, path: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: relay.port, path, localAddress, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('error', (error) => resolve(error.message));
    req.end();
  });
}

/** Writes `line` every 100 ms until the socket closes: a client that never finishes its request. */
function trickle(socket: Socket, line: string): void {
  const timer = setInterval(() => {
    if (socket.writable) socket.write(line);
  }, 100);
  socket.once('close', () => clearInterval(timer));
}

describe('relay server: behind its own reverse proxy (--trust-proxy)', () => {
  let relay: InProcessRelay;
  before(async () => {
    relay = await startInProcessRelay({ trustProxy: true });
  });
  after(async () => relay.cleanup());

  it('counts the pairing limit per client the proxy names, so one client reaching it leaves the others alone', async () => {
    relay.advance(61_000);
    assert.deepEqual(await pairingStatuses(relay, PAIRINGS_PER_MINUTE + 1, () => '203.0.113.7'), LIMITED);
    assert.deepEqual(
      await pairingStatuses(relay, 1, () => '203.0.113.8'),
      [201],
      'another client behind the same proxy is still served',
    );
  });

  it('believes only the address its proxy added: a client cannot dodge the limit by sending X-Forwarded-For', async () => {
    relay.advance(61_000);
    // The proxy appends the address it saw to whatever the client sent.
    assert.deepEqual(
      await pairingStatuses(
        relay,
        PAIRINGS_PER_MINUTE + 1,
        (attempt) => `198.51.100.${attempt + 1}, 203.0.113.9`,
      ),
      LIMITED,
    );
  });

  it('serves more connections from the proxy than one client address may open', async () => {
    const connections = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_ADDRESS }, () => openConnection(relay)),
    );
    try {
      const { socket, ended } = await openConnection(relay);
      socket.end('GET /healthz HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n');
      assert.match(await within(ended, 'the answer on the extra connection', 3_000), /^HTTP\/1\.1 200 /);
    } finally {
      for (const { socket } of connections) socket.destroy();
    }
  });
});

describe('relay server: reached directly (no --trust-proxy)', () => {
  let relay: InProcessRelay;
  before(async () => {
    relay = await startInProcessRelay();
  });
  after(async () => relay.cleanup());

  it('ignores X-Forwarded-For: a client naming a new address each time still meets the pairing limit', async () => {
    relay.advance(61_000);
    assert.deepEqual(
      await pairingStatuses(relay, PAIRINGS_PER_MINUTE + 1, (attempt) => `198.51.100.${attempt + 1}`),
      LIMITED,
    );
  });

  it('closes a connection beyond the per-address limit unanswered, and still serves another address', async () => {
    const connections = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_ADDRESS }, () => openConnection(relay)),
    );
    try {
      const { socket, ended } = await openConnection(relay);
      socket.end('GET /healthz HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n');
      assert.equal(await within(ended, 'the extra connection to be closed', 3_000), '');
      assert.equal(await getFrom(relay, '/healthz', '127.0.0.2'), 200);
    } finally {
      for (const { socket } of connections) socket.destroy();
    }
    await waitFor(
      async () => (await getFrom(relay, '/healthz', '127.0.0.1')) === 200,
      'the address to be served again once its connections closed',
      3_000,
    );
  });
});

describe('relay server: slow clients (--request-timeout)', () => {
  let relay: InProcessRelay;
  before(async () => {
    relay = await startInProcessRelay({ requestTimeoutMs: 300 });
  });
  after(async () => relay.cleanup());

  it('answers 408 and closes a client that trickles its headers, however long it keeps sending', async () => {
    const { socket, ended } = await openConnection(relay);
    socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n');
    trickle(socket, 'X-Slow: 1\r\n');
    assert.equal(await getFrom(relay, '/healthz', '127.0.0.2'), 200, 'others are served meanwhile');
    assert.match(await within(ended, 'the trickling client to be cut off', 3_000), /^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a client that trickles its body', async () => {
    const { socket, ended } = await openConnection(relay);
    socket.write(
      'POST /v1/pairings HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    trickle(socket, ' ');
    const answer = await within(ended, 'the trickling client to be cut off', 3_000);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.deepEqual(bodyOf(answer), {
      error: 'invalid_request',
      error_description: 'The request did not arrive in time.',
    });
  });
});

/** The status line, headers (lower-cased names) and JSON body of the one answer a connection got. */
function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body = ''] = raw.split('\r\n\r\n', 2) as [string, string?];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) as unknown };
}

const bodyOf = (raw: string) => parseAnswer(raw).body;

describe("relay server: requests Node's HTTP parser refuses", () => {
  let relay: InProcessRelay;
  before(async () => {
    relay = await startInProcessRelay({});
  });
  after(async () => relay.cleanup());

  async function answerTo(bytes: string): Promise<ReturnType<typeof parseAnswer>> {
    const { socket, ended } = await openConnection(relay);
    socket.write(bytes);
    return parseAnswer(await within(ended, 'the connection to be closed', 3_000));
  }

  it('answers bad framing with 400 in the relay error shape, with its security headers, and closes', async () => {
    const answer = await answerTo(
      'POST /v1/pairings HTTP/1.1\r\nHost: relay\r\nContent-Length: ten\r\n\r\n{}',
    );
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, {
      error: 'invalid_request',
      error_description: 'The request is malformed.',
    });
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['x-frame-options'], 'DENY');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.match(answer.headers['content-security-policy'] ?? '', /default-src 'none'/);
    assert.equal(answer.headers['connection'], 'close');
    assert.equal(answer.headers['strict-transport-security'], undefined, 'no HSTS over plain HTTP');
  });

  it('answers headers beyond the limit with 431 in the relay error shape', async () => {
    const answer = await answerTo(
      `GET /healthz HTTP/1.1\r\nHost: relay\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(answer.status, 431);
    assert.deepEqual(answer.body, {
      error: 'invalid_request',
      error_description: "The request's headers are too large.",
    });
  });

  it('keeps the answer of a request that arrived whole when garbage follows it, then closes', async () => {
    const { socket, ended } = await openConnection(relay);
    socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\nNOT HTTP AT ALL\r\n\r\n');
    const raw = await within(ended, 'the connection to be closed', 3_000);
    assert.match(raw, /^HTTP\/1\.1 200 /, 'the health check is answered, not refused');
    assert.doesNotMatch(raw, /HTTP\/1\.1 400 /, 'and no refusal is written after it');
  });
});

describe('relay server: HTTPS (--tls-cert, --tls-key)', () => {
  let cert: ThrowawayCert;
  let relay: InProcessRelay;
  before(async () => {
    cert = makeThrowawayCert();
    relay = await startInProcessRelay({ tls: { cert: cert.cert, key: cert.key }, requestTimeoutMs: 300 });
  });
  after(async () => {
    await relay.cleanup();
    cert.remove();
  });

  it('serves its pages over HTTPS with HSTS and Secure host-only cookies', async () => {
    assert.match(relay.url, /^https:\/\//);
    const response = await new Promise<{ status: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpsRequest(`${relay.url}/sign-in`, { ca: cert.cert }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers['strict-transport-security'], 'max-age=31536000');
    const cookies = response.headers['set-cookie'] as string[];
    assert.ok(cookies.length > 0);
    for (const cookie of cookies) {
      assert.match(cookie, /^__Host-/);
      assert.match(cookie, /; Secure/);
    }
  });

  it('cuts off a client that trickles its headers over TLS too', async () => {
    const socket = connectTls({ host: '127.0.0.1', port: relay.port, ca: cert.cert });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n');
    trickle(socket, 'X-Slow: 1\r\n');
    const answer = parseAnswer(await within(ended, 'the trickling client to be cut off', 3_000));
    assert.equal(answer.status, 408);
    assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000', 'HSTS over TLS');
  });
});
