import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useBroker, type BrokerProcess } from '../support/broker-process.js';

interface Dto {
  id: string;
  title: string;
  message: string;
  agent: string;
  project?: string;
  status: string;
}

const ROWS = 2000;
const AGENTS = ['claude', 'codex', 'gemini', 'aider'];

/** Row i: its agent, project and a word only some rows have, so every filter has a known answer. */
function row(index: number) {
  return {
    title: `build ${index}${index % 7 === 0 ? ' Flaky-Test' : ''}`,
    message: index % 10 === 0 ? `disk 100%_full on host ${index}` : `all fine ${index}`,
    agent: AGENTS[index % AGENTS.length]!,
    project: index % 3 === 0 ? 'Orion' : 'vega',
    type: index % 5 === 0 ? 'warning' : 'info',
  };
}

async function list(broker: BrokerProcess, query: string): Promise<{ items: Dto[]; next: string | null }> {
  const response = await broker.request('GET', `/v1/notifications?${query}`);
  assert.equal(response.status, 200, query);
  return { items: (await response.json()) as Dto[], next: response.headers.get('x-next-cursor') };
}

/** Every page of a query, following X-Next-Cursor; the pages and their rows. */
async function walk(broker: BrokerProcess, query: string): Promise<{ pages: number; items: Dto[] }> {
  const items: Dto[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const page = await list(broker, `${query}&${cursor === null ? 'page=1' : `before=${cursor}`}`);
    items.push(...page.items);
    pages++;
    cursor = page.next;
  } while (cursor !== null && pages < 100);
  return { pages, items };
}

describe('GET /v1/notifications: search and cursor paging over 2,000 notifications', () => {
  const broker = useBroker();
  /** Ids by row index, in creation order. */
  const ids: string[] = [];
  before(async () => {
    for (let start = 0; start < ROWS; start += 100) {
      const created = await Promise.all(
        Array.from({ length: 100 }, async (_, offset) => {
          const response = await broker.request('POST', '/v1/notifications', row(start + offset));
          return ((await response.json()) as Dto).id;
        }),
      );
      ids.push(...created);
    }
    // Creation order is id order (UUIDv7), whatever order the parallel requests landed in.
    ids.sort();
  });
  const newestFirst = (keep: (index: number) => boolean) =>
    ids
      .map((id, index) => ({ id, index }))
      .filter(({ index }) => keep(index))
      .reverse()
      .map(({ id }) => id);
  const titleIndex = (dto: Dto) => Number(/build (\d+)/.exec(dto.title)![1]);

  it('without page or before, the answer is as before: no X-Next-Cursor, limit and default unchanged', async () => {
    const plain = await list(broker, 'limit=3');
    assert.equal(plain.next, null);
    assert.deepEqual(
      plain.items.map((dto) => dto.id),
      newestFirst(() => true).slice(0, 3),
    );
    assert.equal((await list(broker, '')).items.length, 100);
    assert.equal((await list(broker, 'limit=9999')).items.length, 500);
  });

  const walks: [string, string, (index: number, dto?: Dto) => boolean][] = [
    ['everything', 'limit=500', () => true],
    ['one agent', 'agent=codex&limit=77', (i) => i % 4 === 1],
    ['one project and type', 'project=Orion&type=warning&limit=10', (i) => i % 3 === 0 && i % 5 === 0],
  ];
  for (const [name, query, keep] of walks) {
    it(`pages through ${name} exactly once, newest first`, async () => {
      const { items, pages } = await walk(broker, query);
      const expected = newestFirst((index) => keep(index));
      assert.deepEqual(
        items.map((dto) => dto.id),
        expected,
      );
      const limit = Number(/limit=(\d+)/.exec(query)![1]);
      assert.equal(pages, Math.max(1, Math.ceil(expected.length / limit)));
    });
  }

  const searches: [string, string, (index: number) => boolean][] = [
    ['a word of the title, any case', 'q=flaky-test', (i) => i % 7 === 0],
    ['a word of the message, % and _ taken literally', 'q=100%25_full', (i) => i % 10 === 0],
    ['_ is no wildcard', 'q=1_0', () => false],
    ['an agent', 'q=GEMINI', (i) => i % 4 === 2],
    ['a project', 'q=orion', (i) => i % 3 === 0],
    ['every word must appear', 'q=orion%20flaky', (i) => i % 3 === 0 && i % 7 === 0],
    ['with a filter', 'q=flaky&agent=claude', (i) => i % 7 === 0 && i % 4 === 0],
    ['a number inside text', 'q=build%201999', (i) => String(i).includes('1999')],
    ['nothing matches', 'q=nowhere-to-be-found', () => false],
    ['only spaces: no search', 'q=%20%20', () => true],
  ];
  for (const [name, query, keep] of searches) {
    it(`searches ${name}`, async () => {
      const { items } = await walk(broker, `${query}&limit=250`);
      assert.deepEqual(
        items.map((dto) => dto.id),
        newestFirst(keep),
        `${query}: ${items.slice(0, 5).map(titleIndex).join(', ')}`,
      );
    });
  }

  it('a page that holds exactly the rest is the last: no X-Next-Cursor', async () => {
    // 286 rows have the word: a page of exactly that many is the last one.
    const full = await list(broker, 'q=flaky&page=1&limit=286');
    assert.equal(full.items.length, 286);
    assert.equal(full.next, null);
    const short = await list(broker, 'q=flaky&page=1&limit=285');
    assert.notEqual(short.next, null);
    assert.deepEqual((await list(broker, `q=flaky&before=${short.next}`)).items.length, 1);
  });

  it('a notification created while paging does not shift the pages', async () => {
    const first = await list(broker, 'page=1&limit=10');
    await broker.request('POST', '/v1/notifications', { title: 'arrived meanwhile', message: 'm' });
    const second = await list(broker, `before=${first.next}&limit=10`);
    assert.deepEqual(
      second.items.map((dto) => dto.id),
      newestFirst(() => true).slice(10, 20),
    );
  });

  const refusals: [string, string][] = [
    ['before=garbage!', "before must be the X-Next-Cursor header of a previous page's answer"],
    ['before=', "before must be the X-Next-Cursor header of a previous page's answer"],
    [
      `before=${Buffer.from('n1.-5').toString('base64url')}`,
      "before must be the X-Next-Cursor header of a previous page's answer",
    ],
    [
      'page=2',
      'page must be 1: ask for the first page with page=1, then for each next one with before=<its X-Next-Cursor>',
    ],
    [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
    [`q=${Array.from({ length: 11 }, (_, i) => `w${i}`).join('%20')}`, 'q may hold at most 10 words'],
  ];
  for (const [query, error] of refusals) {
    it(`refuses ${query.slice(0, 30)} with 400`, async () => {
      const response = await broker.request('GET', `/v1/notifications?${query}`);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
    });
  }
});
