import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { logFileName } from '../../src/log/logger.js';
import { useBroker, type BrokerProcess } from '../support/broker-process.js';

/** Far above what the two sockets' kernel buffers hold, far below what an endless body reaches. */
const BOUND_BYTES = 64 * 1024 * 1024;
const DEADLINE_MS = 10_000;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface EndlessResult {
  closed: boolean;
  written: number;
  answer: string;
}

/**
 * Sends `head` and then body bytes for as long as the broker takes them: as chunks of a chunked body,
 * or raw bytes under a declared length. Ends when the broker closes the connection or at the deadline.
 */
function sendEndlessBody(port: number, head: string, chunked: boolean): Promise<EndlessResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let written = 0;
    let answer = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ closed, written, answer });
    };
    const timer = setTimeout(() => finish(false), DEADLINE_MS);
    const frame = chunked
      ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')])
      : CHUNK;
    // One chunk per turn of the event loop, so an answer is read as it arrives, before a reset.
    const pump = () => {
      if (settled || socket.destroyed) return;
      written += frame.length;
      if (socket.write(frame)) setImmediate(pump);
      else socket.once('drain', pump);
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

type Case = [name: string, head: (broker: BrokerProcess) => string, chunked: boolean, status: number];

const post = (target: string, headers: string[]) =>
  `POST ${target} HTTP/1.1\r\n${headers.map((header) => `${header}\r\n`).join('')}\r\n`;
const host = (broker: BrokerProcess) => `Host: 127.0.0.1:${broker.port}`;
const bearer = (broker: BrokerProcess) => `Authorization: Bearer ${broker.token}`;

const CASES: Case[] = [
  ['401 (no token)', (b) => post('/v1/notifications', [host(b), 'Transfer-Encoding: chunked']), true, 401],
  [
    '401 (no token) under a declared length within the limit',
    (b) => post('/v1/notifications', [host(b), 'Content-Length: 60000']),
    false,
    401,
  ],
  [
    '421 (foreign Host)',
    () => post('/v1/notifications', ['Host: evil.example', 'Transfer-Encoding: chunked']),
    true,
    421,
  ],
  [
    '400 (two Authorization headers)',
    (b) => post('/v1/notifications', [host(b), bearer(b), bearer(b), 'Transfer-Encoding: chunked']),
    true,
    400,
  ],
  [
    '400 (bad percent-encoding in the path)',
    (b) => post('/v1/%zz', [host(b), bearer(b), 'Transfer-Encoding: chunked']),
    true,
    400,
  ],
  [
    '413 (declared length over the limit)',
    (b) => post('/v1/notifications', [host(b), bearer(b), 'Content-Length: 1000000000000']),
    false,
    413,
  ],
  [
    '413 (chunked body passing the limit)',
    (b) => post('/v1/notifications', [host(b), bearer(b), 'Transfer-Encoding: chunked']),
    true,
    413,
  ],
];

describe('an early answer to a request whose body is still coming', () => {
  const broker = useBroker();

  for (const [name, head, chunked, status] of CASES) {
    it(`closes the connection after ${name} instead of reading an endless body`, async () => {
      const result = await sendEndlessBody(broker.port, head(broker), chunked);
      assert.ok(result.closed, `still reading after ${DEADLINE_MS} ms (${result.written} bytes taken)`);
      assert.ok(result.written < BOUND_BYTES, `the broker took ${result.written} bytes`);
      // The answer can be lost when the close resets the connection; when it arrives, it is this one.
      if (result.answer !== '') assert.match(result.answer, new RegExp(`^HTTP/1\\.1 ${status} `));
      const health = await fetch(`${broker.baseUrl}/health`);
      assert.equal(health.status, 200);
    });
  }
});

describe('an early 429 to a request whose body is still coming', () => {
  const broker = useBroker({ config: { rateLimitPerSecond: 1 } });

  it('closes the connection instead of reading an endless body', async () => {
    const head = post('/v1/notifications', [host(broker), bearer(broker), 'Transfer-Encoding: chunked']);
    // The limit counts per clock second: a try that straddles a second boundary meets the 413 instead.
    const logged429 = () =>
      readFileSync(join(broker.home.logDir, logFileName(new Date())), 'utf8').split('-> 429 ').length - 1;
    for (let attempt = 0; attempt < 5; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const first = await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' });
      await first.arrayBuffer();
      if (first.status !== 201) continue;
      const before = logged429();
      const result = await sendEndlessBody(broker.port, head, true);
      assert.ok(result.closed, `still reading after ${DEADLINE_MS} ms (${result.written} bytes taken)`);
      assert.ok(result.written < BOUND_BYTES, `the broker took ${result.written} bytes`);
      // The answer itself can be lost to the reset; the broker's log says what it answered.
      if (logged429() === before + 1) return;
    }
    assert.fail('no attempt met the rate limit');
  });
});
