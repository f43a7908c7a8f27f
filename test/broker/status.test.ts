import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';

type Status = 'active' | 'dismissed' | 'resolved';
type Dto = Record<string, unknown> & { id: string; status: Status; updatedAt: string };

/** Spec "States and transitions" for native calls, and conventions.md's decisions of its open points. */
const PATCH_TABLE: [from: Status, to: Status, expected: number][] = [
  ['active', 'dismissed', 200],
  ['active', 'resolved', 200],
  ['active', 'active', 200],
  ['dismissed', 'active', 200],
  ['resolved', 'active', 200],
  ['dismissed', 'resolved', 400],
  ['dismissed', 'dismissed', 400],
  ['resolved', 'dismissed', 400],
  ['resolved', 'resolved', 400],
];

describe('status transitions', () => {
  const broker = useBroker();

  const json = async (response: Response) => (await response.json()) as Dto;
  const create = async (extra: Record<string, unknown> = {}) =>
    json(await broker.request('POST', '/v1/notifications', { title: 't', message: 'm', ...extra }));
  const patch = (id: string, body: unknown) => broker.request('PATCH', `/v1/notifications/${id}`, body);
  const inState = async (status: Status) => {
    const created = await create();
    if (status !== 'active') assert.equal((await patch(created.id, { status })).status, 200);
    return created.id;
  };

  for (const [from, to, expected] of PATCH_TABLE) {
    it(`PATCH ${from} → ${to} answers ${expected}`, async () => {
      const id = await inState(from);
      const before = await json(await broker.request('GET', `/v1/notifications/${id}`));
      const response = await patch(id, { status: to });
      assert.equal(response.status, expected);
      const after = await json(await broker.request('GET', `/v1/notifications/${id}`));
      if (expected === 200) {
        assert.deepEqual(await json(response), after);
        assert.equal(after.status, to);
      } else {
        const body = (await response.json()) as { error: string };
        assert.equal(
          body.error,
          `cannot change status from ${from} to ${to}; a ${from} notification can only be reopened with status active`,
        );
        assert.deepEqual(after, before);
      }
    });
  }

  it('leaves an active notification unchanged when PATCHed to active', async () => {
    const created = await create();
    const response = await json(await patch(created.id, { status: 'active' }));
    assert.deepEqual(response, created);
  });

  it('sets resolvedAt on resolve and clears it on reopen', async () => {
    const created = await create();
    const resolved = await json(await patch(created.id, { status: 'resolved' }));
    assert.equal(typeof resolved['resolvedAt'], 'string');
    assert.ok(resolved.updatedAt >= created.updatedAt);
    const reopened = await json(await patch(created.id, { status: 'active' }));
    assert.equal(reopened.status, 'active');
    assert.equal('resolvedAt' in reopened, false);
  });

  it('dismisses with POST /dismiss, which needs no body', async () => {
    const created = await create();
    const response = await broker.request('POST', `/v1/notifications/${created.id}/dismiss`);
    assert.equal(response.status, 200);
    assert.equal((await json(response)).status, 'dismissed');
    assert.equal(
      'resolvedAt' in (await json(await broker.request('GET', `/v1/notifications/${created.id}`))),
      false,
    );
  });

  it('refuses POST /dismiss on a resolved notification with 400', async () => {
    const id = await inState('resolved');
    const response = await broker.request('POST', `/v1/notifications/${id}/dismiss`);
    assert.equal(response.status, 400);
  });

  for (const [name, body, error] of [
    ['a missing status', {}, 'status is required'],
    ['no body', undefined, 'status is required'],
    ['an unknown status', { status: 'archived' }, 'status must be one of active, dismissed, resolved'],
    ['a numeric status', { status: 1 }, 'status must be one of active, dismissed, resolved'],
  ] as const) {
    it(`answers PATCH with ${name} with 400 "${error}"`, async () => {
      const created = await create();
      const response = await patch(created.id, body);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
    });
  }

  for (const [method, path, body] of [
    ['GET', '/v1/notifications/missing-id', undefined],
    ['PATCH', '/v1/notifications/missing-id', { status: 'resolved' }],
    ['POST', '/v1/notifications/missing-id/dismiss', undefined],
  ] as const) {
    it(`answers ${method} ${path} with 404 "notification not found"`, async () => {
      const response = await broker.request(method, path, body);
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), { error: 'notification not found' });
    });
  }

  it('refuses to reopen a notification whose key another active notification holds', async () => {
    const first = await create({ key: 'reopen-conflict' });
    await patch(first.id, { status: 'resolved' });
    const second = await create({ key: 'reopen-conflict' });
    assert.notEqual(second.id, first.id);
    const response = await patch(first.id, { status: 'active' });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      error:
        'cannot reopen: another active notification already has key "reopen-conflict"; dismiss or resolve it first',
    });
    assert.equal(
      (await json(await broker.request('GET', `/v1/notifications/${first.id}`))).status,
      'resolved',
    );
  });

  it('counts active notifications in /v1/health', async () => {
    const health = async () =>
      ((await (await broker.request('GET', '/v1/health')).json()) as { activeCount: number }).activeCount;
    const before = await health();
    const created = await create();
    assert.equal(await health(), before + 1);
    await patch(created.id, { status: 'resolved' });
    assert.equal(await health(), before);
  });
  it('refuses a PATCH with a field other than status with 400 and leaves the notification unchanged', async () => {
    const created = await create({ title: 'original' });
    const response = await patch(created.id, { status: 'dismissed', title: 'CHANGED' });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'unknown field "title"; allowed fields are status' });
    const after = await json(await broker.request('GET', `/v1/notifications/${created.id}`));
    assert.equal(after.status, 'active');
    assert.equal(after['title'], 'original');
    assert.equal(after.updatedAt, created.updatedAt);
  });
});
