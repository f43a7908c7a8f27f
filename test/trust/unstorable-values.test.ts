import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arcEvent } from '../arc/fixtures.js';
import { useBroker } from '../support/broker-process.js';

const LONE = 'x\udc00y';
const surrogate = (field: string) => `${field} must be valid Unicode text; it contains a lone surrogate`;
const infinite = (field: string) => `${field} must be a finite number; it is beyond the range of a double`;

/** Raw JSON text: JSON.stringify escapes a lone surrogate as \udc00, and 1e400 can only be written by hand. */
const native = (fields: string) => `{"title":"t","message":"m",${fields}}`;
const NATIVE: [name: string, body: string, error: string][] = [
  ['a lone low surrogate in title', JSON.stringify({ title: LONE, message: 'm' }), surrogate('title')],
  [
    'a lone high surrogate in message',
    JSON.stringify({ title: 't', message: 'a\ud800' }),
    surrogate('message'),
  ],
  ['a lone surrogate in agent', native(`"agent":${JSON.stringify(LONE)}`), surrogate('agent')],
  ['a lone surrogate in project', native(`"project":${JSON.stringify(LONE)}`), surrogate('project')],
  ['a lone surrogate in key', native(`"key":${JSON.stringify(LONE)}`), surrogate('key')],
  ['a lone surrogate in cwd', native(`"cwd":${JSON.stringify(LONE)}`), surrogate('cwd')],
  [
    'a lone surrogate in a metadata value',
    native(`"metadata":{"a":{"b":"\\udfff"}}`),
    surrogate('metadata.a.b'),
  ],
  [
    'a lone surrogate in a metadata array',
    native(`"metadata":{"list":["ok","\\ud83d"]}`),
    surrogate('metadata.list[1]'),
  ],
  [
    'a lone surrogate in a metadata key',
    native(`"metadata":{"\\udc00":1}`),
    'metadata has a key that is not valid Unicode text; it contains a lone surrogate',
  ],
  ['1e400 in metadata', native(`"metadata":{"n":1e400}`), infinite('metadata.n')],
  ['-1e400 in a metadata array', native(`"metadata":{"n":[1,-1e400]}`), infinite('metadata.n[1]')],
  ['a 400-digit number in metadata', native(`"metadata":{"n":${'9'.repeat(400)}}`), infinite('metadata.n')],
  ['1e400 as pid', native(`"pid":1e400`), infinite('pid')],
];

describe('values JSON allows but storage cannot keep', () => {
  const broker = useBroker();
  const countAll = async () =>
    ((await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as unknown[]).length;

  for (const [name, body, error] of NATIVE) {
    it(`POST /v1/notifications refuses ${name} with 400 naming the field and stores nothing`, async () => {
      const before = await countAll();
      const response = await broker.request('POST', '/v1/notifications', body);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
      assert.equal(await countAll(), before);
    });
  }

  const ARC: [name: string, event: Record<string, unknown>, error: string][] = [
    [
      'in request.title',
      arcEvent({ request: { kind: 'question', message: 'm', title: LONE } }),
      surrogate('request.title'),
    ],
    [
      'in request.message',
      arcEvent({ request: { kind: 'question', message: LONE } }),
      surrogate('request.message'),
    ],
    ['in sender.id', arcEvent({ sender: { id: LONE } }), surrogate('sender.id')],
    ['in context.project', arcEvent({ context: { project: LONE } }), surrogate('context.project')],
  ];
  for (const [name, event, error] of ARC) {
    it(`POST /v1/events refuses a lone surrogate ${name} with 400 naming the field`, async () => {
      const before = await countAll();
      const response = await broker.request('POST', '/v1/events', event);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
      assert.equal(await countAll(), before);
    });
  }

  it('POST /v1/events refuses 1e400 as context.pid with 400 naming the field', async () => {
    const text = JSON.stringify(arcEvent({ context: { pid: 7 } })).replace('"pid":7', '"pid":1e400');
    const response = await broker.request('POST', '/v1/events', text);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: infinite('context.pid') });
  });

  it('keeps a well-formed surrogate pair (an emoji) and a large finite number exactly as sent', async () => {
    const response = await broker.request(
      'POST',
      '/v1/notifications',
      native(`"title":"\\ud83d\\udd14","metadata":{"n":1.5e308}`).replace('"title":"t",', ''),
    );
    assert.equal(response.status, 201);
    const created = (await response.json()) as { id: string };
    const stored = (await (await broker.request('GET', `/v1/notifications/${created.id}`)).json()) as {
      title: string;
      metadata: { n: number };
    };
    assert.equal(stored.title, '🔔');
    assert.equal(stored.metadata.n, 1.5e308);
  });
});
