import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';

const valid = { title: 'Title', message: 'Message' };
const text = (length: number, char = 'a') => char.repeat(length);

/** Spec "Limits" and "POST /v1/notifications": at the limit accepted, one over rejected with the message. */
const LENGTH_LIMITS: [field: string, max: number, message: string][] = [
  ['title', 200, 'title must be at most 200 characters'],
  ['message', 4000, 'message must be at most 4000 characters'],
  ['agent', 100, 'agent must be at most 100 characters'],
  ['agentInstance', 100, 'agentInstance must be at most 100 characters'],
  ['key', 100, 'key must be at most 100 characters'],
  ['project', 200, 'project must be at most 200 characters'],
  ['cwd', 1024, 'cwd must be at most 1024 characters'],
];

const REJECTED: [name: string, body: unknown, error: string][] = [
  ['a missing title', { message: 'm' }, 'title is required'],
  ['a missing message', { title: 't' }, 'message is required'],
  ['an empty title', { ...valid, title: '   ' }, 'title must not be empty'],
  ['a numeric title', { ...valid, title: 5 }, 'title must be a string'],
  ['an empty agent', { ...valid, agent: '' }, 'agent must not be empty'],
  [
    'a type breaking the grammar',
    { ...valid, type: '9lives' },
    'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
  ],
  [
    'a 65-character type',
    { ...valid, type: text(65) },
    'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
  ],
  [
    'an unknown priority',
    { ...valid, priority: 'urgent' },
    'priority must be low, normal, high, or critical',
  ],
  ['a negative pid', { ...valid, pid: -1 }, 'pid must be a non-negative integer'],
  ['a fractional pid', { ...valid, pid: 1.5 }, 'pid must be a non-negative integer'],
  ['a string pid', { ...valid, pid: '12' }, 'pid must be a non-negative integer'],
  ['array metadata', { ...valid, metadata: [1] }, 'metadata must be a JSON object'],
  [
    'metadata over 8192 bytes',
    { ...valid, metadata: { x: text(8200) } },
    'metadata must be at most 8192 bytes',
  ],
  [
    'an unknown field',
    { ...valid, titel: 'typo' },
    'unknown field "titel"; allowed fields are title, message, type, priority, agent, agentInstance, project, key, cwd, pid, metadata, actions, origin',
  ],
  ['an array body', [valid], 'request body must be a JSON object'],
  ['a string body', 'just text', 'request body must be a JSON object'],
  ['a null body', null, 'request body must be a JSON object'],
];

describe('validation of POST /v1/notifications', () => {
  const broker = useBroker();

  const countAll = async () =>
    ((await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as unknown[]).length;

  for (const [field, max, message] of LENGTH_LIMITS) {
    it(`accepts ${field} of ${max} characters and rejects ${max + 1} with "${message}"`, async () => {
      const atLimit = await broker.request('POST', '/v1/notifications', { ...valid, [field]: text(max) });
      assert.equal(atLimit.status, 201);
      const before = await countAll();
      const over = await broker.request('POST', '/v1/notifications', { ...valid, [field]: text(max + 1) });
      assert.equal(over.status, 400);
      assert.deepEqual(await over.json(), { error: message });
      assert.equal(await countAll(), before);
    });
  }

  it('counts characters, not UTF-16 units: 200 emoji make a valid title', async () => {
    const response = await broker.request('POST', '/v1/notifications', { ...valid, title: text(200, '🔔') });
    assert.equal(response.status, 201);
  });

  it('accepts metadata of exactly 8192 serialized bytes', async () => {
    const metadata = { x: text(8192 - '{"x":""}'.length) };
    assert.equal(Buffer.byteLength(JSON.stringify(metadata)), 8192);
    const response = await broker.request('POST', '/v1/notifications', { ...valid, metadata });
    assert.equal(response.status, 201);
  });

  for (const [name, body, error] of REJECTED) {
    it(`rejects ${name} with 400 and creates nothing`, async () => {
      const before = await countAll();
      const response = await broker.request('POST', '/v1/notifications', JSON.stringify(body));
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
      assert.equal(await countAll(), before);
    });
  }

  for (const [name, raw] of [
    ['invalid JSON', '{"title": "t",'],
    ['an empty body', ''],
  ] as const) {
    it(`answers ${name} with 400 and a JSON error`, async () => {
      const response = await broker.request('POST', '/v1/notifications', raw);
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: string };
      assert.equal(typeof body.error, 'string');
      assert.ok(body.error.length > 0);
    });
  }
});
