import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import {
  check,
  json,
  nastyString,
  nearLimit,
  pollutionKey,
  printable,
  wrongType,
  type Probe,
} from './probe.js';
import { assertAlive, validCreate } from './support.js';

/**
 * Property-based: random and hostile bodies at every endpoint that reads one, sent to the real
 * notifyd over raw sockets. Every property checks (in `check`): never a 5xx, `{"error": string}` on
 * every 4xx but 413 (empty), and no stored row changed by a rejected request; afterwards the process is
 * alive and both health endpoints answer.
 */

const LIMIT = 65536;
/** Runs per property; `NOTIFY_FUZZ_RUNS=1000 npm test` searches deeper. */
const RUNS = Number(process.env['NOTIFY_FUZZ_RUNS'] ?? 150);

const FIELDS = [
  'title',
  'message',
  'type',
  'priority',
  'agent',
  'agentInstance',
  'project',
  'key',
  'cwd',
  'pid',
  'metadata',
] as const;
const TEXT_LIMITS: Record<string, number> = {
  title: 200,
  message: 4000,
  agent: 100,
  agentInstance: 100,
  project: 200,
  key: 100,
  cwd: 1024,
};

interface Fixture {
  broker: BrokerProcess;
  /** Ids of seeded notifications in every status, so PATCH and dismiss hit real rows. */
  ids: string[];
}

async function seed(broker: BrokerProcess): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, status] of (
    ['active', 'dismissed', 'resolved', 'active', 'resolved'] as const
  ).entries()) {
    const created = await broker.request(
      'POST',
      '/v1/notifications',
      validCreate(`seed ${index}`, { key: `seed-key-${index % 2}`, metadata: { n: index } }),
    );
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    if (status !== 'active') {
      const patched = await broker.request('PATCH', `/v1/notifications/${id}`, { status });
      assert.equal(patched.status, 200);
    }
    ids.push(id);
  }
  return ids;
}

async function fixture(): Promise<Fixture> {
  const broker = await startBroker();
  return { broker, ids: await seed(broker) };
}

const auth = (broker: BrokerProcess): [string, string] => ['Authorization', `Bearer ${broker.token}`];

/** Text of a JSON object whose keys may repeat and may be `__proto__` (JSON.stringify cannot say that). */
function objectText(entries: [string, unknown][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

/** A create body where every field may be absent, valid, near its limit, of a wrong type or hostile. */
const hostileCreateEntries: fc.Arbitrary<[string, unknown][]> = fc
  .tuple(
    ...FIELDS.map((field) =>
      fc.option(
        fc.oneof(
          { weight: 3, arbitrary: validValue(field) },
          { weight: 2, arbitrary: wrongType },
          { weight: 1, arbitrary: nastyString() },
          ...(TEXT_LIMITS[field]
            ? [{ weight: 2, arbitrary: nearLimit(TEXT_LIMITS[field]) as fc.Arbitrary<unknown> }]
            : []),
        ),
        { freq: 3 },
      ),
    ),
    fc.array(fc.tuple(fc.oneof(pollutionKey, fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 })), {
      maxLength: 2,
    }),
  )
  .map(([...all]) => {
    const extra = all.pop() as [string, unknown][];
    const entries: [string, unknown][] = [];
    (all as (unknown | null)[]).forEach((value, index) => {
      if (value !== null) entries.push([FIELDS[index]!, value]);
    });
    return [...entries, ...extra];
  });

function validValue(field: (typeof FIELDS)[number]): fc.Arbitrary<unknown> {
  switch (field) {
    case 'type':
      return fc.constantFrom(
        'info',
        'warning',
        'input-required',
        'InputRequired',
        'custom_type',
        'x'.repeat(64),
      );
    case 'priority':
      return fc.constantFrom('low', 'normal', 'HIGH', 'crit-ical', 'Critical');
    case 'pid':
      return fc.nat();
    case 'metadata':
      return fc.oneof(
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
        // Serialized sizes around the 8192-byte limit.
        fc.integer({ min: 8170, max: 8200 }).map((size) => ({ pad: 'x'.repeat(size - '{"pad":""}'.length) })),
      );
    default:
      return fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim() !== '');
  }
}

/**
 * Why a create body must be refused whatever else it holds, or undefined when it may be valid: a field
 * the API does not have (a prototype key among them), a missing title or message, or a field of the
 * wrong JSON type. A repeated key counts with its last value, as JSON.parse reads it.
 */
function mustRefuse(entries: [string, unknown][]): string | undefined {
  const keys = new Set(entries.map(([key]) => key));
  const unknown = [...keys].find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) return `unknown field ${unknown}`;
  const body = new Map(entries);
  for (const field of ['title', 'message']) {
    if (body.get(field) === undefined || body.get(field) === null) return `${field} missing`;
  }
  for (const [field, value] of body) {
    if (value === null) continue;
    const right =
      field === 'pid'
        ? typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        : field === 'metadata'
          ? typeof value === 'object' && !Array.isArray(value)
          : typeof value === 'string';
    if (!right) return `${field} of the wrong type`;
  }
  return undefined;
}

/** A created notification holds what was sent: text trimmed, never coerced from another type. */
function assertStoredAsSent(dto: Record<string, unknown>, sent: Record<string, unknown>): void {
  for (const field of Object.keys(TEXT_LIMITS)) {
    if (field === 'agent' && (sent[field] === undefined || sent[field] === null)) continue;
    assert.equal(dto[field], typeof sent[field] === 'string' ? sent[field].trim() : undefined, field);
  }
  assert.equal(dto['pid'], sent['pid'] ?? undefined, 'pid');
  assert.deepEqual(dto['metadata'], sent['metadata'] ?? null, 'metadata');
}

/** Properties of a successful create answer: the limits of spec "Resources" hold for what was stored. */
function assertStoredShape(dto: Record<string, unknown>): void {
  const count = (value: unknown) => [...String(value)].length;
  assert.equal(dto['status'], 'active');
  // A keyed create answers 201 when it refreshes the key's active notification too (spec "Create"), and
  // the fuzzer sends its near-limit key again in later runs: only an unkeyed one is always new.
  if (dto['key'] === undefined) assert.equal(dto['revision'], 1, 'a new notification is its first revision');
  else assert.ok(Number.isInteger(dto['revision']) && (dto['revision'] as number) >= 1, 'a revision');
  assert.match(String(dto['type']), /^[a-z][a-z0-9_]{0,63}$/);
  assert.ok(['low', 'normal', 'high', 'critical'].includes(String(dto['priority'])));
  for (const [field, limit] of Object.entries(TEXT_LIMITS)) {
    if (dto[field] === undefined) continue;
    assert.equal(typeof dto[field], 'string', field);
    assert.ok(count(dto[field]) >= 1 && count(dto[field]) <= limit, `${field} length ${count(dto[field])}`);
  }
  if (dto['metadata'] !== null) {
    assert.ok(Buffer.byteLength(JSON.stringify(dto['metadata'])) <= 8192, 'metadata over 8192 bytes stored');
  }
  for (const key of Object.keys(dto)) {
    assert.ok(
      [
        ...Object.keys(TEXT_LIMITS),
        'id',
        'type',
        'priority',
        'pid',
        'status',
        'createdAt',
        'updatedAt',
        'resolvedAt',
        'metadata',
        'revision',
      ].includes(key),
      `unexpected field ${key} in a Notification`,
    );
  }
}

/** Byte bodies JSON.parse chokes on or that stress the parser and the size limit. */
const hostileBytes: fc.Arbitrary<{ body: Buffer; oversized: boolean }> = fc
  .oneof(
    // Random bytes, invalid UTF-8 included.
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    // A valid body cut short anywhere.
    fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat()).map(([value, cut]) => {
      const text = JSON.stringify(validCreate('truncated', { metadata: { value } }));
      return Buffer.from(text.slice(0, cut % text.length));
    }),
    // Invalid UTF-8 inside otherwise valid JSON strings.
    fc
      .tuple(
        fc.constantFrom('title', 'message', 'key', 'agent'),
        fc.uint8Array({ minLength: 1, maxLength: 8 }),
      )
      .map(([field, bytes]) =>
        Buffer.concat([
          Buffer.from(
            `{"title":"t","message":"m",${JSON.stringify(field === 'title' || field === 'message' ? 'project' : field)}:"`,
          ),
          Buffer.from([0xff, 0xc3, ...bytes, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
      ),
    // Not JSON at all.
    fc
      .constantFrom(
        'title=a&message=b',
        '<xml/>',
        'undefined',
        'NaN',
        '{title:"a"}',
        "{'a':1}",
        '\u0000',
        '[',
        '{"a":1}}',
        '1 2',
      )
      .map((text) => Buffer.from(text)),
    // Deep nesting, at the top level, in metadata and in an unknown field, up to the body limit.
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom(100, 1000, 4000, 4096, 4500, 5000, 8000, 10000, 20000, 32000),
          fc.integer({ min: 1, max: 32000 }),
        ),
        fc.constantFrom('top', 'metadata', 'title', 'unknown'),
        fc.constantFrom('[', '{"a":'),
      )
      .map(([depth, where, open]) => {
        const close = open === '[' ? ']' : '}';
        const nested = `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`;
        const inner = where === 'metadata' ? `{"deep":${nested}}` : nested;
        const text =
          where === 'top'
            ? nested
            : `{"title":"t","message":"m",${JSON.stringify(where === 'unknown' ? 'zz' : where)}:${inner}}`;
        return Buffer.from(text);
      }),
    // Huge strings just under, at and over the body limit.
    fc
      .tuple(
        fc.integer({ min: LIMIT - 40, max: LIMIT + 40 }),
        fc.constantFrom('title', 'message', 'metadata'),
      )
      .map(([size, field]) => {
        const prefix = `{"title":"t","message":"m","${field === 'metadata' ? 'metadata":{"k":"' : `${field}2":"`}`;
        const suffix = field === 'metadata' ? '"}}' : '"}';
        return Buffer.from(
          `${prefix}${'x'.repeat(Math.max(0, size - prefix.length - suffix.length))}${suffix}`,
        );
      }),
  )
  .map((body) => printable({ body, oversized: body.length > LIMIT }));

const contentType = fc.constantFrom<string | undefined>(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '*/*',
  'application/json; charset=latin1',
  '',
  ';;;',
);

function bodyTarget(ids: string[]): fc.Arbitrary<{ method: string; target: string }> {
  const id = fc.constantFrom(...ids, '00000000-0000-7000-8000-000000000000');
  return fc.oneof(
    fc.constant({ method: 'POST', target: '/v1/notifications' }),
    id.map((value) => ({ method: 'PATCH', target: `/v1/notifications/${value}` })),
    id.map((value) => ({ method: 'POST', target: `/v1/notifications/${value}/dismiss` })),
    fc.constantFrom(
      { method: 'GET', target: '/v1/notifications' },
      { method: 'GET', target: '/health' },
      { method: 'GET', target: '/v1/health' },
      { method: 'PUT', target: '/v1/notifications' },
      { method: 'DELETE', target: `/v1/notifications/${ids[0]}` },
    ),
  );
}

describe('hostile bodies against the real notifyd', () => {
  let fx: Fixture;
  before(async () => {
    fx = await fixture();
  });
  after(async () => {
    await fx.broker.stop();
    fx.broker.home.cleanup();
  });

  it('metadata nested deeper than JSON.stringify can recurse is refused with 400, not a 500 (regression)', async () => {
    for (const depth of [5_000, 20_000]) {
      for (const [open, close] of [
        ['[', ']'],
        ['{"a":', '}'],
      ] as const) {
        const nested = `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`;
        const body = Buffer.from(`{"title":"t","message":"m","metadata":{"deep":${nested}}}`);
        if (body.length > LIMIT) continue;
        const response = await check(fx.broker, {
          method: 'POST',
          target: '/v1/notifications',
          headers: [auth(fx.broker), ['Content-Type', 'application/json']],
          body,
        });
        assert.equal(response.status, 400, `depth ${depth} ${open}`);
        assert.deepEqual(json(response), { error: 'metadata must be at most 8192 bytes' });
      }
    }
    await assertAlive(fx.broker);
  });

  it('random JSON values as the body of every endpoint: no 5xx, error shape, rejected requests change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyTarget(fx.ids),
        fc.jsonValue({ maxDepth: 4 }),
        async ({ method, target }, value) => {
          await check(fx.broker, {
            method,
            target,
            headers: [auth(fx.broker), ['Content-Type', 'application/json']],
            body: Buffer.from(JSON.stringify(value) ?? 'null'),
          });
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('create bodies with wrong types, near-limit strings and prototype keys in every field', async () => {
    // Its own broker: the rows it creates are large, and would slow every later snapshot.
    const own = await fixture();
    try {
      await createProperty(own);
    } finally {
      await own.broker.stop();
      own.broker.home.cleanup();
    }
  });

  async function createProperty(fx: Fixture): Promise<void> {
    await fc.assert(
      fc.asyncProperty(hostileCreateEntries, async (entries) => {
        const response = await check(fx.broker, {
          method: 'POST',
          target: '/v1/notifications',
          headers: [auth(fx.broker), ['Content-Type', 'application/json']],
          body: Buffer.from(objectText(entries)),
        });
        assert.ok(response.status === 201 || response.status === 400, `create answered ${response.status}`);
        const refusal = mustRefuse(entries);
        if (refusal !== undefined) assert.equal(response.status, 400, `${refusal}: ${objectText(entries)}`);
        if (response.status === 201) {
          const dto = json(response) as Record<string, unknown>;
          assertStoredShape(dto);
          assertStoredAsSent(dto, JSON.parse(objectText(entries)) as Record<string, unknown>);
          const stored = await fx.broker.request('GET', `/v1/notifications/${String(dto['id'])}`);
          assert.equal(stored.status, 200, 'a 201 id must be readable');
          assert.deepEqual(await stored.json(), dto);
        } else {
          const message = (json(response) as { error: string }).error;
          assert.ok(
            message.length > 0 && !message.includes(fx.broker.token),
            'a useful message, never the token',
          );
        }
      }),
      { numRuns: RUNS, examples: createExamples() },
    );
    await assertAlive(fx.broker);
  }

  /** Each wrong type in each field, each prototype key, and text at and past its limit, every run. */
  function createExamples(): [[string, unknown][]][] {
    const required: [string, unknown][] = [
      ['title', 't'],
      ['message', 'm'],
    ];
    const wrong = (field: string): unknown[] =>
      field === 'pid'
        ? [-1, 1.5, '7', true, [], {}, Number.MAX_SAFE_INTEGER + 2]
        : field === 'metadata'
          ? [[], 'x', 7, true]
          : [7, true, [], {}];
    return [
      ...FIELDS.flatMap((field) => wrong(field).map((value) => [...required, [field, value]])),
      ...['__proto__', 'constructor', 'toString', 'titel'].map((key) => [...required, [key, {}]]),
      ...Object.entries(TEXT_LIMITS).flatMap(([field, limit]) =>
        [limit, limit + 1].map((length) => [...required, [field, 'é'.repeat(length)]]),
      ),
    ].map((entries) => [entries as [string, unknown][]]);
  }

  it('invalid UTF-8, truncated JSON, non-JSON, deep nesting and bodies around the size limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyTarget(fx.ids),
        hostileBytes,
        contentType,
        async ({ method, target }, { body, oversized }, type) => {
          const response = await check(fx.broker, {
            method,
            target,
            headers: [
              auth(fx.broker),
              ...(type === undefined ? [] : [['Content-Type', type] as [string, string]]),
            ],
            body,
            mayClose: oversized,
          });
          if (oversized)
            assert.ok(
              response.status === 413 || response.status === undefined,
              `oversized: ${response.status}`,
            );
          else
            assert.notEqual(response.status, 413, 'a body within the limit must not be refused as too large');
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('chunked bodies are bounded by the same limit as declared ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1000, max: 20000 }),
        async (chunks, chunkSize) => {
          const payload = Buffer.from(
            JSON.stringify(validCreate('chunked', { metadata: { pad: 'y'.repeat(chunks * chunkSize) } })),
          );
          const parts: Buffer[] = [];
          for (let offset = 0; offset < payload.length; offset += chunkSize) {
            const part = payload.subarray(offset, offset + chunkSize);
            parts.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'));
          }
          parts.push(Buffer.from('0\r\n\r\n'));
          const probe: Probe = {
            method: 'POST',
            target: '/v1/notifications',
            headers: [
              auth(fx.broker),
              ['Content-Type', 'application/json'],
              ['Transfer-Encoding', 'chunked'],
            ],
            body: Buffer.concat(parts),
            contentLength: false,
            mayClose: payload.length > LIMIT,
          };
          const response = await check(fx.broker, probe);
          if (payload.length > LIMIT) assert.ok(response.status === 413 || response.status === undefined);
          // Within the limit the body is read whole and judged by the metadata size rule.
          else if (chunks * chunkSize + '{"pad":""}'.length > 8192) assert.equal(response.status, 400);
          else assert.equal(response.status, 201);
        },
      ),
      { numRuns: Math.ceil(RUNS / 4) },
    );
    await assertAlive(fx.broker);
  });

  it('PATCH status values of every shape', async () => {
    const status = fc.oneof(
      fc.constantFrom(
        'active',
        'dismissed',
        'resolved',
        ' Active ',
        'RESOLVED',
        'closed',
        '',
        'active\u0000',
      ),
      wrongType,
      nastyString(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fx.ids),
        status,
        fc.array(
          fc.tuple(fc.oneof(pollutionKey, fc.string({ maxLength: 6 })), fc.jsonValue({ maxDepth: 2 })),
          { maxLength: 2 },
        ),
        async (id, value, extra) => {
          const response = await check(fx.broker, {
            method: 'PATCH',
            target: `/v1/notifications/${id}`,
            headers: [auth(fx.broker), ['Content-Type', 'application/json']],
            body: Buffer.from(objectText([['status', value], ...extra])),
          });
          assert.ok(response.status === 200 || response.status === 400, `PATCH answered ${response.status}`);
          if (response.status === 200) {
            const dto = json(response) as { id: string; status: string };
            assert.equal(dto.id, id);
            assert.ok(['active', 'dismissed', 'resolved'].includes(dto.status));
          }
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });
});
