import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { BrokerProcess } from '../support/broker-process.js';

/** One HTTP answer as the wire carried it; `status` is undefined when the server closed without one. */
export interface RawResponse {
  status: number | undefined;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Writes `bytes` verbatim to the broker's socket and reads until the server closes the connection or
 * `timeoutMs` passes. Callers add `Connection: close` so one request is one answer. No part of the
 * request is checked or repaired: this is how a hostile or broken client talks.
 */
export function rawRequest(
  port: number,
  bytes: Buffer | string,
  options: { endAfterWrite?: boolean; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('connect', () => {
      socket.write(bytes, () => {
        if (options.endAfterWrite) socket.end();
      });
    });
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed.complete) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after (or instead of) an answer is a legal way for a server to drop a bad request.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return done();
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

function parseResponse(data: Buffer): RawResponse & { complete: boolean } {
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd === -1) return { status: undefined, headers: {}, body: Buffer.alloc(0), complete: false };
  const lines = data.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(headerEnd + 4);
  const status = statusMatch ? Number(statusMatch[1]) : undefined;
  // An interim answer (100 Continue) precedes the real one.
  if (status !== undefined && status >= 100 && status < 200) return parseResponse(rest);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const { body, complete } = dechunk(rest);
    return { status, headers, body, complete };
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (length !== undefined) {
    return { status, headers, body: rest.subarray(0, length), complete: rest.length >= length };
  }
  return { status, headers, body: rest, complete: false };
}

function dechunk(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd === -1) return { body: Buffer.concat(parts), complete: false };
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return { body: Buffer.concat(parts), complete: false };
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

/** A complete HTTP/1.1 request; `headers` are written in order, duplicates included. */
export function buildRequest(
  broker: BrokerProcess,
  method: string,
  target: string,
  headers: [string, string][],
  body?: Buffer | string,
): Buffer {
  const head = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${broker.port}`];
  for (const [name, value] of headers) head.push(`${name}: ${value}`);
  head.push('Connection: close');
  const start = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  return body === undefined ? start : Buffer.concat([start, Buffer.from(body)]);
}

/**
 * Spec "Errors": every error except 413 is a JSON object with exactly one string field `error`;
 * a 413 has an empty body. Never a 5xx.
 */
export function assertErrorShape(status: number, body: Buffer | string, context: string): void {
  assert.ok(status < 500, `${context}: answered ${status} ${body.toString()}`);
  if (status < 400) return;
  const text = body.toString();
  if (status === 413) {
    assert.equal(text, '', `${context}: 413 must have an empty body`);
    return;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    assert.fail(`${context}: ${status} body is not JSON: ${JSON.stringify(text.slice(0, 300))}`);
  }
  assert.ok(
    typeof payload === 'object' && payload !== null && !Array.isArray(payload),
    `${context}: ${status} body is not a JSON object: ${text.slice(0, 300)}`,
  );
  assert.deepEqual(Object.keys(payload), ['error'], `${context}: ${status} body must be {"error"}: ${text}`);
  assert.equal(typeof (payload as { error: unknown }).error, 'string', `${context}: error must be a string`);
}

/** Every stored notification (the list endpoint's maximum page), as the API shows it. */
export async function snapshot(broker: BrokerProcess): Promise<string> {
  const response = await broker.request('GET', '/v1/notifications?limit=500');
  assert.equal(response.status, 200, 'snapshot list must answer 200');
  return response.text();
}

/** The process is alive, both health endpoints answer, and nothing was logged as an internal error. */
export async function assertAlive(broker: BrokerProcess): Promise<void> {
  const errors = existsSync(broker.home.logDir)
    ? readdirSync(broker.home.logDir).flatMap((file) =>
        readFileSync(join(broker.home.logDir, file), 'utf8')
          .split('\n')
          .filter((line) => line.includes('[ERROR]')),
      )
    : [];
  assert.deepEqual(errors, [], 'no request may fail with an internal error, even one the client never saw');
  assert.equal(broker.child.exitCode, null, 'notifyd must still run');
  assert.equal(broker.child.signalCode, null, 'notifyd must not have died on a signal');
  const open = await fetch(`${broker.baseUrl}/health`);
  assert.equal(open.status, 200);
  assert.deepEqual(await open.json(), { status: 'ok' });
  const detailed = await broker.request('GET', '/v1/health');
  assert.equal(detailed.status, 200);
  assert.equal(((await detailed.json()) as { status: string }).status, 'ok');
}

/** A valid native create body, unique per call when `tag` differs. */
export function validCreate(tag: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: `title ${tag}`, message: `message ${tag}`, agent: 'robustness', ...extra };
}

/** A notification the broker acknowledged with 201, with the body it answered. */
export interface Ack {
  id: string;
  dto: Record<string, unknown>;
}

export interface Load {
  acked: Ack[];
  /** Resolves once at least `count` creates were acknowledged (or every loop has ended). */
  reached(count: number): Promise<void>;
  /** Resolves when every loop has ended: the broker went away, or `stop()` was called. */
  finished: Promise<void>;
  stop(): void;
}

/**
 * `loops` concurrent create loops, each sending distinct notifications (own key, varied fields) until
 * the broker stops answering. Every 201 is recorded with its answer; other answers are not.
 */
export function startLoad(broker: BrokerProcess, loops = 8, maxPerLoop = 5000): Load {
  const acked: Ack[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let stopped = false;
  let ended = false;
  const notify = () => {
    for (const waiter of [...waiters]) {
      if (acked.length >= waiter.count || ended) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const loop = async (loopIndex: number) => {
    for (let n = 0; n < maxPerLoop && !stopped; n++) {
      const tag = `${loopIndex}-${n}`;
      const body = validCreate(`load ${tag} ✓ 😀`, {
        key: `load-${tag}`,
        project: `project-${loopIndex}`,
        agentInstance: `instance-${n % 3}`,
        type: ['info', 'warning', 'input_required', 'custom_kind'][n % 4],
        priority: ['low', 'normal', 'high', 'critical'][n % 4],
        cwd: `/tmp/work/${tag}`,
        pid: loopIndex * 100000 + n,
        metadata: { loop: loopIndex, n, nested: { list: [1, 'two', null, true] } },
      });
      let response: Response;
      try {
        response = await broker.request('POST', '/v1/notifications', body);
      } catch {
        return; // The broker is gone (killed or stopped): this loop is over.
      }
      const text = await response.text().catch(() => undefined);
      if (response.status === 201 && text !== undefined) {
        const dto = JSON.parse(text) as Record<string, unknown>;
        acked.push({ id: dto['id'] as string, dto });
        notify();
      }
    }
  };
  const finished = Promise.all(Array.from({ length: loops }, (_, index) => loop(index))).then(() => {
    ended = true;
    notify();
  });
  return {
    acked,
    reached: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        notify();
      }),
    finished,
    stop: () => {
      stopped = true;
    },
  };
}

/** Every acknowledged notification is stored with exactly the fields its 201 answer showed. */
export async function assertAllPersisted(broker: BrokerProcess, acked: Ack[]): Promise<void> {
  assert.ok(acked.length > 0, 'the load produced no acknowledged creates');
  for (const { id, dto } of acked) {
    const response = await broker.request('GET', `/v1/notifications/${id}`);
    assert.equal(response.status, 200, `acknowledged notification ${id} is missing after the restart`);
    assert.deepEqual(
      await response.json(),
      dto,
      `acknowledged notification ${id} changed across the restart`,
    );
  }
}
