import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';

type Dto = { id: string; title: string; status: string; type: string; project?: string; agent: string };

describe('GET /v1/notifications', () => {
  let broker: BrokerProcess;
  const ids: Record<string, string> = {};

  before(async () => {
    broker = await startBroker();
    const seed: [name: string, body: Record<string, unknown>, status?: string][] = [
      ['a', { type: 'info', project: 'alpha', agent: 'claude' }],
      ['b', { type: 'error', project: 'beta', agent: 'codex' }, 'resolved'],
      ['c', { type: 'input_required', project: 'alpha', agent: 'codex' }, 'dismissed'],
      ['d', { type: 'error', project: 'alpha', agent: 'claude' }],
    ];
    for (const [name, body, status] of seed) {
      const response = await broker.request('POST', '/v1/notifications', {
        title: name,
        message: 'm',
        ...body,
      });
      const { id } = (await response.json()) as Dto;
      ids[name] = id;
      if (status) await broker.request('PATCH', `/v1/notifications/${id}`, { status });
    }
  });
  after(() => broker.stop());

  const titles = async (query: string) => {
    const response = await broker.request('GET', `/v1/notifications${query}`);
    assert.equal(response.status, 200);
    return ((await response.json()) as Dto[]).map((n) => n.title).join('');
  };

  const FILTERS: [query: string, expected: string][] = [
    ['', 'dcba'],
    ['?unresolved=true', 'da'],
    ['?unresolved', 'da'],
    ['?unresolved=false', 'dcba'],
    ['?status=resolved', 'b'],
    ['?status=dismissed', 'c'],
    ['?status=ACTIVE', 'da'],
    ['?status=resolved&unresolved=true', 'da'],
    ['?type=error', 'db'],
    ['?type=Input-Required', 'c'],
    ['?project=alpha', 'dca'],
    ['?project=%20alpha%20', 'dca'],
    ['?agent=codex', 'cb'],
    ['?agent=claude&type=error', 'd'],
    ['?project=alpha&status=active&agent=claude&type=info', 'a'],
    ['?project=nobody', ''],
    ['?limit=2', 'dc'],
    ['?limit=0', 'd'],
    ['?limit=-7', 'd'],
    ['?limit=100000', 'dcba'],
  ];

  for (const [query, expected] of FILTERS) {
    it(`lists "${expected}" newest first for ${query || 'no query'}`, async () => {
      assert.equal(await titles(query), expected);
    });
  }

  for (const [query, error] of [
    ['?status=archived', 'status must be one of active, dismissed, resolved'],
    [
      '?type=9bad',
      'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
    ],
    ['?limit=ten', 'limit must be an integer'],
    ['?unresolved=maybe', 'unresolved must be true or false'],
  ] as const) {
    it(`answers ${query} with 400 naming the parameter`, async () => {
      const response = await broker.request('GET', `/v1/notifications${query}`);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
    });
  }

  it('clamps the limit to 500 and defaults to 100', async () => {
    const bodies = Array.from({ length: 520 }, (_, i) => ({
      title: `bulk ${i}`,
      message: 'm',
      agent: 'bulk',
    }));
    for (const body of bodies) await broker.request('POST', '/v1/notifications', body);
    const count = async (query: string) =>
      ((await (await broker.request('GET', `/v1/notifications${query}`)).json()) as Dto[]).length;
    assert.equal(await count('?agent=bulk'), 100);
    assert.equal(await count('?agent=bulk&limit=9999'), 500);
    assert.equal(await count('?agent=bulk&limit=501'), 500);
    assert.equal(await count('?agent=bulk&limit=1'), 1);
  });
});
