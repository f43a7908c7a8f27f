import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BrokerProcess } from '../support/broker-process.js';
import { assertErrorShape, rawRequest, snapshot, type RawResponse } from './support.js';

/** One request exactly as it goes on the wire; nothing is added but Host and Connection: close. */
export interface Probe {
  method: string;
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** false: no Content-Length header at all; a string: that header verbatim; default: the true length. */
  contentLength?: false | string;
  /** Skip the Host header (it is then up to `headers`). */
  noHost?: boolean;
  /** A closed connection instead of an answer is allowed (spec "Errors" 413: oversized bodies). */
  mayClose?: boolean;
}

export function wire(broker: BrokerProcess, probe: Probe): Buffer {
  const head = [`${probe.method} ${probe.target} HTTP/1.1`];
  if (!probe.noHost) head.push(`Host: 127.0.0.1:${broker.port}`);
  for (const [name, value] of probe.headers) head.push(`${name}: ${value}`);
  if (probe.body !== undefined && probe.contentLength === undefined) {
    head.push(`Content-Length: ${probe.body.length}`);
  } else if (typeof probe.contentLength === 'string') {
    head.push(`Content-Length: ${probe.contentLength}`);
  }
  head.push('Connection: close');
  const start = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  return probe.body === undefined ? start : Buffer.concat([start, probe.body]);
}

export function describe(probe: Probe): string {
  const body =
    probe.body === undefined ? '' : ` body=${JSON.stringify(probe.body.toString('utf8').slice(0, 200))}`;
  return `${probe.method} ${probe.target.slice(0, 200)} headers=${JSON.stringify(probe.headers).slice(0, 300)}${body}`;
}

/**
 * Sends a probe over a raw socket and checks the properties every answer must have: never a 5xx,
 * the spec's error shape on every 4xx, and no stored notification changed by a rejected request.
 * With `neverChanges` (reads) the rows must be unchanged whatever the answer.
 * The client half-closes after writing, so a body shorter than its declared length ends in an answer,
 * never a hang.
 */
export async function check(
  broker: BrokerProcess,
  probe: Probe,
  options: { neverChanges?: boolean } = {},
): Promise<RawResponse> {
  const before = await snapshot(broker);
  const response = await rawRequest(broker.port, wire(broker, probe), { endAfterWrite: true });
  const context = describe(probe);
  if (response.status === undefined) {
    assert.ok(probe.mayClose, `${context}: the connection closed without an answer`);
  } else if (probe.method !== 'HEAD') {
    assertErrorShape(response.status, response.body, context);
  } else {
    assert.ok(response.status < 500, `${context}: answered ${response.status}`);
  }
  if (options.neverChanges || response.status === undefined || response.status >= 400) {
    assert.equal(
      await snapshot(broker),
      before,
      `${context}: a rejected or read-only request changed stored rows`,
    );
  }
  return response;
}

export function json(response: RawResponse): unknown {
  return JSON.parse(response.body.toString('utf8'));
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries

/** Strings with the characters that break naive code: astral pairs, lone surrogates, controls, NUL. */
export const nastyString = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '\u0000',
      '\ud800',
      '\udfff',
      '😀',
      '‮',
      '__proto__',
      'constructor',
      '%00',
      '../..',
      "' OR 1=1 --",
      '"); DROP TABLE notifications; --',
      '\\',
      '${jndi:x}',
    ),
  );

/** A string of exactly `length` characters as a person counts them, some astral, optionally padded. */
export const stringOfLength = (length: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom('a', 'é', '😀', '中'), fc.constantFrom('', '  ', '\n'))
    .map(([unit, pad]) => `${pad}${unit.repeat(Math.max(0, length))}${pad}`);

/** Lengths around a limit: the edges where off-by-one lives. */
export const nearLimit = (limit: number): fc.Arbitrary<string> =>
  fc.integer({ min: Math.max(0, limit - 2), max: limit + 2 }).chain(stringOfLength);

export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.constant(-1),
  fc.constant(1.5),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.constant(1e308),
);

export const pollutionKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
);

/** An HTTP header value without CR, LF or NUL (those are a separate, request-smuggling property). */
export const headerValue = (maxLength = 40): fc.Arbitrary<string> =>
  fc
    .string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength,
    })
    .map((value) => value.trim());

export const headerName = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'.split('')),
    minLength: 1,
    maxLength: 20,
  })
  .filter(
    (name) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name.toLowerCase()),
  );

/** encodeURIComponent that never throws: lone surrogates go out as their UTF-8 replacement bytes. */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A body that prints as a short summary in fast-check counterexamples instead of every byte. */
export function printable<T extends { body: Buffer }>(value: T): T {
  return Object.assign(value, {
    [fc.toStringMethod]: () => {
      const text = value.body.toString('latin1');
      const shown = text.length > 120 ? `${text.slice(0, 80)}…${text.slice(-30)}` : text;
      return `{${value.body.length} bytes: ${JSON.stringify(shown)}}`;
    },
  });
}
