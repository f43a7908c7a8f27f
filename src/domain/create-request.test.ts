import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_METADATA_BYTES, parseCreateRequest } from './create-request.js';

const BASE = { title: 'Build done', message: 'All green' };

function refusal(body: unknown): string {
  try {
    parseCreateRequest(body);
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
}

describe('parseCreateRequest (spec "POST /v1/notifications" and "Limits")', () => {
  it('fills the defaults and nothing else for a minimal body', () => {
    assert.deepEqual(parseCreateRequest(BASE), {
      title: 'Build done',
      message: 'All green',
      type: 'info',
      agent: 'unknown',
    });
  });

  it('trims and keeps every field a full body sends', () => {
    const request = parseCreateRequest({
      title: '  T  ',
      message: ' M ',
      type: ' Input-Required ',
      priority: 'HIGH',
      agent: ' claude ',
      agentInstance: ' tab-1 ',
      project: ' notify ',
      key: ' build ',
      cwd: ' /home/me ',
      pid: 0,
      metadata: { a: [1, 2] },
      actions: [{ id: 'yes', label: ' Yes ' }],
    });
    assert.deepEqual(request, {
      title: 'T',
      message: 'M',
      type: 'input_required',
      priority: 'high',
      agent: 'claude',
      agentInstance: 'tab-1',
      project: 'notify',
      key: 'build',
      cwd: '/home/me',
      pid: 0,
      metadata: { a: [1, 2] },
      actions: [{ id: 'yes', label: 'Yes' }],
    });
  });

  it('treats null like an absent optional field', () => {
    const request = parseCreateRequest({
      ...BASE,
      type: null,
      priority: null,
      agent: null,
      agentInstance: null,
      project: null,
      key: null,
      cwd: null,
      pid: null,
      metadata: null,
    });
    assert.deepEqual(request, { ...BASE, type: 'info', agent: 'unknown' });
  });

  const LIMITS: [field: string, max: number][] = [
    ['title', 200],
    ['message', 4000],
    ['agent', 100],
    ['agentInstance', 100],
    ['project', 200],
    ['key', 100],
    ['cwd', 1024],
  ];
  for (const [field, max] of LIMITS) {
    it(`takes ${field} of ${max} characters (astral ones count once) and refuses ${max + 1}`, () => {
      const atLimit = '😀'.repeat(max);
      const request = parseCreateRequest({ ...BASE, [field]: atLimit }) as unknown as Record<string, string>;
      assert.equal(request[field], atLimit);
      assert.equal(
        refusal({ ...BASE, [field]: 'x'.repeat(max + 1) }),
        `${field} must be at most ${max} characters`,
      );
    });
    it(`refuses an empty, blank or non-string ${field}`, () => {
      assert.equal(refusal({ ...BASE, [field]: '' }), `${field} must not be empty`);
      assert.equal(refusal({ ...BASE, [field]: ' \t\n' }), `${field} must not be empty`);
      assert.equal(refusal({ ...BASE, [field]: 5 }), `${field} must be a string`);
    });
  }

  it('requires title and message', () => {
    assert.equal(refusal({ message: 'm' }), 'title is required');
    assert.equal(refusal({ title: 't', message: null }), 'message is required');
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 3, undefined]) {
      assert.equal(refusal(body), 'request body must be a JSON object');
    }
  });

  it('refuses an unknown field, naming it and the allowed ones', () => {
    assert.equal(
      refusal({ ...BASE, colour: 'red' }),
      'unknown field "colour"; allowed fields are title, message, type, priority, agent, agentInstance, project, key, cwd, pid, metadata, actions, origin',
    );
  });

  it('refuses a type that is not an identifier', () => {
    for (const type of ['2fast', '', 7, 'a'.repeat(65)]) {
      assert.equal(
        refusal({ ...BASE, type }),
        'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
      );
    }
  });

  it('reads priority loosely and refuses anything else', () => {
    assert.equal(parseCreateRequest({ ...BASE, priority: ' Crit-ical ' }).priority, 'critical');
    for (const priority of ['urgent', '', 3]) {
      assert.equal(refusal({ ...BASE, priority }), 'priority must be low, normal, high, or critical');
    }
  });

  it('takes pid 0 and the largest safe integer, refuses negatives, fractions and strings', () => {
    assert.equal(parseCreateRequest({ ...BASE, pid: Number.MAX_SAFE_INTEGER }).pid, Number.MAX_SAFE_INTEGER);
    for (const pid of [-1, 1.5, '12', Number.MAX_SAFE_INTEGER + 1]) {
      assert.equal(refusal({ ...BASE, pid }), 'pid must be a non-negative integer');
    }
  });

  it(`takes metadata of exactly ${MAX_METADATA_BYTES} serialized bytes and refuses one more`, () => {
    const overhead = JSON.stringify({ a: '' }).length;
    const atLimit = { a: 'x'.repeat(MAX_METADATA_BYTES - overhead) };
    assert.deepEqual(parseCreateRequest({ ...BASE, metadata: atLimit }).metadata, atLimit);
    const multiByte = { a: 'é'.repeat((MAX_METADATA_BYTES - overhead) / 2), b: 1 };
    assert.equal(refusal({ ...BASE, metadata: multiByte }), 'metadata must be at most 8192 bytes');
    const oneOver = { a: 'x'.repeat(MAX_METADATA_BYTES - overhead + 1) };
    assert.equal(refusal({ ...BASE, metadata: oneOver }), 'metadata must be at most 8192 bytes');
  });

  it('counts metadata too deep to serialize as too large, not as a crash', () => {
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 200_000; level++) deep = { d: deep };
    assert.equal(refusal({ ...BASE, metadata: deep }), 'metadata must be at most 8192 bytes');
  });

  it('refuses metadata that is not an object', () => {
    for (const metadata of [[], 'x', 1, true]) {
      assert.equal(refusal({ ...BASE, metadata }), 'metadata must be a JSON object');
    }
  });

  it('lets an error other than stack overflow through', () => {
    const metadata = {
      toJSON: () => {
        throw new TypeError('boom');
      },
    };
    assert.throws(() => parseCreateRequest({ ...BASE, metadata }), TypeError);
  });
});
