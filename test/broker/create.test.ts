import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('POST /v1/notifications', () => {
  const broker = useBroker({
    config: {
      types: { deploy: { defaultPriority: 'critical' }, quiet: { defaultPriority: 'low', enabled: false } },
    },
  });

  const create = async (body: unknown) => {
    const response = await broker.request('POST', '/v1/notifications', body);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('creates an active notification with the defaults of the spec and answers 201', async () => {
    const { status, body } = await create({ title: 'Build done', message: 'All green' });
    assert.equal(status, 201);
    assert.equal(typeof body['id'], 'string');
    assert.equal(body['agent'], 'unknown');
    assert.equal(body['type'], 'info');
    assert.equal(body['priority'], 'normal');
    assert.equal(body['status'], 'active');
    assert.equal(body['metadata'], null);
    assert.match(body['createdAt'] as string, ISO_WITH_OFFSET);
    assert.equal(body['createdAt'], body['updatedAt']);
    for (const absent of ['key', 'agentInstance', 'project', 'cwd', 'pid', 'resolvedAt']) {
      assert.equal(absent in body, false, `${absent} should be absent`);
    }
  });

  it('stores and returns every optional field', async () => {
    const input = {
      title: 'Question',
      message: 'Which branch?',
      type: 'input_required',
      priority: 'high',
      agent: 'claude',
      agentInstance: 'tab-2',
      project: 'notify',
      key: 'create-all-fields',
      cwd: '/home/me/notify',
      pid: 4242,
      metadata: { session: 'abc', nested: { n: [1, 2] } },
    };
    const { status, body } = await create(input);
    assert.equal(status, 201);
    for (const [field, value] of Object.entries(input)) assert.deepEqual(body[field], value, field);
    const fetched = await (await broker.request('GET', `/v1/notifications/${body['id']}`)).json();
    assert.deepEqual(fetched, body);
  });

  it('takes the default priority of a configured type, and normal for a disabled or unknown one', async () => {
    assert.equal((await create({ title: 't', message: 'm', type: 'deploy' })).body['priority'], 'critical');
    assert.equal(
      (await create({ title: 't', message: 'm', type: 'deploy', priority: 'low' })).body['priority'],
      'low',
    );
    assert.equal((await create({ title: 't', message: 'm', type: 'quiet' })).body['priority'], 'normal');
    assert.equal(
      (await create({ title: 't', message: 'm', type: 'never_configured' })).body['priority'],
      'normal',
    );
  });

  it('normalizes type and priority spellings', async () => {
    const { body } = await create({
      title: 't',
      message: 'm',
      type: ' Permission-Required ',
      priority: 'CRITICAL',
    });
    assert.equal(body['type'], 'permission_required');
    assert.equal(body['priority'], 'critical');
    assert.equal(
      (await create({ title: 't', message: 'm', type: 'inputrequired' })).body['type'],
      'input_required',
    );
  });

  it('updates the active notification with the same key in place: same id, refreshed updatedAt, new fields', async () => {
    const first = await create({ title: 'Waiting', message: 'first', key: 'dedup-1', project: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await create({
      title: 'Still waiting',
      message: 'second',
      key: 'dedup-1',
      priority: 'high',
    });
    assert.equal(second.status, 201);
    assert.equal(second.body['id'], first.body['id']);
    assert.equal(second.body['createdAt'], first.body['createdAt']);
    assert.ok((second.body['updatedAt'] as string) > (first.body['updatedAt'] as string));
    assert.equal(second.body['title'], 'Still waiting');
    assert.equal(second.body['message'], 'second');
    assert.equal(second.body['priority'], 'high');
    assert.equal('project' in second.body, false, 'an in-place update replaces the visible state');
    const listed = (await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as {
      key?: string;
    }[];
    assert.equal(listed.filter((n) => n.key === 'dedup-1').length, 1);
  });

  it('clears on an in-place update every optional field the update does not send, and restores the defaults', async () => {
    const first = await create({
      title: 'Waiting',
      message: 'first',
      key: 'dedup-omitted',
      type: 'input_required',
      priority: 'high',
      agent: 'claude',
      agentInstance: 'tab-1',
      project: 'notify',
      cwd: '/home/me/notify',
      pid: 4242,
      metadata: { session: 'abc' },
    });
    const second = await create({ title: 'Still waiting', message: 'second', key: 'dedup-omitted' });
    assert.equal(second.body['id'], first.body['id']);
    const fetched = (await (
      await broker.request('GET', `/v1/notifications/${first.body['id']}`)
    ).json()) as Record<string, unknown>;
    for (const body of [second.body, fetched]) {
      for (const absent of ['agentInstance', 'project', 'cwd', 'pid']) {
        assert.equal(absent in body, false, `${absent} is cleared, not kept from the first create`);
      }
      assert.deepEqual(
        [body['metadata'], body['agent'], body['type'], body['priority'], body['key']],
        [null, 'unknown', 'info', 'normal', 'dedup-omitted'],
      );
    }
  });

  it('creates a new notification when the key only matches a dismissed one', async () => {
    const first = await create({ title: 't', message: 'm', key: 'dedup-2' });
    await broker.request('POST', `/v1/notifications/${first.body['id']}/dismiss`);
    const second = await create({ title: 't', message: 'm', key: 'dedup-2' });
    assert.equal(second.status, 201);
    assert.notEqual(second.body['id'], first.body['id']);
    assert.equal(second.body['status'], 'active');
  });

  it('accepts a body sent without a JSON content type, as curl -d sends it', async () => {
    const response = await broker.request(
      'POST',
      '/v1/notifications',
      JSON.stringify({ title: 't', message: 'm' }),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    assert.equal(response.status, 201);
  });
});
