import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { arcEvent, unique } from '../arc/fixtures.js';
import { readLog } from '../support/broker-log.js';
import { useBroker, type BrokerProcess } from '../support/broker-process.js';
import { httpRequest, type HttpResponse } from '../support/http-request.js';
import { waitFor } from '../support/wait-for.js';

/** A create with the owner's token, its body declared by length (plain) or sent chunked (to fastify). */
function sendCreate(
  broker: BrokerProcess,
  path: string,
  text: string,
  headers: Record<string, string | undefined>,
  chunked: boolean,
): Promise<HttpResponse> {
  const all = { authorization: `Bearer ${broker.token}`, host: `127.0.0.1:${broker.port}`, ...headers };
  const sent = Object.fromEntries(
    Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  // Without a declared length node's client sends the body chunked.
  if (!chunked) sent['content-length'] = String(Buffer.byteLength(text));
  return httpRequest({ port: broker.port, method: 'POST', path, headers: sent, body: text, chunked });
}

/**
 * The two create routes are served below fastify when a request is plain (issue 38). A chunked body
 * always goes to fastify, so each request is sent both ways: status, headers and body must be the
 * same, whatever is wrong with it.
 */
describe('the create fast path answers exactly as fastify does', () => {
  const broker = useBroker();
  const DUPLICATE_KEY = 'fast-path-duplicate';
  const DUPLICATE_EVENT = arcEvent({ event_id: 'fast-path-duplicate-event' });

  before(async () => {
    assert.equal(
      (await broker.request('POST', '/v1/notifications', note({ key: DUPLICATE_KEY }))).status,
      201,
    );
    assert.equal((await broker.request('POST', '/v1/events', DUPLICATE_EVENT)).status, 201);
  });

  function note(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { agent: 'bench', project: 'fast', type: 'info', title: 't', message: 'm', ...extra };
  }

  interface Case {
    name: string;
    /** A fresh body each time it is called: two sends must not be one another's duplicate. */
    body: () => string;
    headers?: Record<string, string | undefined>;
  }

  const json = (value: unknown) => () => JSON.stringify(value);
  const common = (valid: () => string): Case[] => [
    { name: 'a valid create', body: valid },
    { name: 'a wrong token', body: valid, headers: { authorization: `Bearer ${broker.token}x` } },
    { name: 'no token', body: valid, headers: { authorization: undefined } },
    { name: 'a Session credential', body: valid, headers: { authorization: 'Session nope' } },
    { name: 'a foreign Host', body: valid, headers: { host: `evil.example:${broker.port}` } },
    { name: 'a text/plain content type', body: valid, headers: { 'content-type': 'text/plain' } },
    { name: 'invalid JSON', body: () => '{"title":' },
    { name: 'an empty body', body: () => '' },
    { name: 'a JSON array', body: json([1, 2]) },
    { name: 'a lone surrogate', body: () => '{"title":"\\ud800","message":"m"}' },
    { name: 'a body over the limit', body: () => JSON.stringify({ title: 'x'.repeat(70_000) }) },
  ];
  const routes: [path: string, cases: Case[]][] = [
    [
      '/v1/notifications',
      [
        ...common(() => JSON.stringify(note({ key: unique('fast') }))),
        { name: 'a missing message', body: json({ title: 't' }) },
        { name: 'an unknown field', body: json(note({ colour: 'red' })) },
        { name: 'a title too long', body: json(note({ title: 'x'.repeat(201) })) },
        { name: 'a repeated key', body: json(note({ key: DUPLICATE_KEY })) },
      ],
    ],
    [
      '/v1/events',
      [
        ...common(() => JSON.stringify(arcEvent())),
        { name: 'a missing request', body: () => JSON.stringify({ ...arcEvent(), request: undefined }) },
        { name: 'an unknown field', body: () => JSON.stringify({ ...arcEvent(), colour: 'red' }) },
        { name: 'an unknown event type', body: () => JSON.stringify(arcEvent({ event_type: 'request.x' })) },
        { name: 'a replayed event', body: json(DUPLICATE_EVENT) },
      ],
    ],
  ];

  /** What differs between two creates by design: the id, times, revision, and the key or event id sent. */
  const VOLATILE = new Set(['id', 'createdAt', 'updatedAt', 'revision', 'key', 'event_id']);

  function comparable(response: HttpResponse) {
    const headers = { ...response.headers };
    delete headers.date;
    if (response.status >= 300) return { status: response.status, headers, body: response.body };
    const rest = { ...headers };
    delete rest['content-length'];
    const body: unknown = JSON.parse(response.body, (name, value: unknown) =>
      VOLATILE.has(name) ? undefined : value,
    );
    return { status: response.status, headers: rest, body, newline: response.body.endsWith('}\n') };
  }

  for (const [path, cases] of routes) {
    for (const { name, body, headers } of cases) {
      it(`POST ${path} with ${name}`, async () => {
        const send = (chunked: boolean) =>
          sendCreate(broker, path, body(), { 'content-type': 'application/json', ...headers }, chunked);
        const plain = await send(false);
        const byFastify = await send(true);
        assert.deepEqual(comparable(plain), comparable(byFastify));
      });
    }
  }
});

describe('the create fast path logs a failed create as fastify does', () => {
  const broker = useBroker();

  it('writes the same failure line for a plain and a chunked request', async () => {
    for (const [path, body] of [
      ['/v1/notifications', '{"title":'],
      ['/v1/events', '{"arc_version":"0.1"}'],
    ] as const) {
      for (const chunked of [false, true]) await sendCreate(broker, path, body, {}, chunked);
    }
    const failedLines = () =>
      readLog(broker.home)
        .split('\n')
        .filter((line) => line.includes(' -> 4'))
        .map((line) => line.slice(line.indexOf('POST ')));
    const failures = await waitFor(() => failedLines().length >= 4 && failedLines(), 'four failure lines');
    assert.equal(failures.length, 4, failures.join('\n'));
    assert.equal(failures[0], 'POST /v1/notifications -> 400 request body is not valid JSON');
    assert.equal(failures[1], failures[0]);
    assert.match(failures[2]!, /^POST \/v1\/events -> 400 ./);
    assert.equal(failures[3], failures[2]);
  });
});
