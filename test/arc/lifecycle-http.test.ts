import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { arcEvent, getNotification, keyedEvent, post, snapshot, unique, type Json } from './fixtures.js';

/** Every row of the spec's "States and transitions" table that involves POST /v1/events. */
describe('ARC lifecycle over HTTP', () => {
  const broker = useBroker({
    config: {
      types: {
        deploy_gate: { enabled: true, defaultPriority: 'critical' },
        retired: { enabled: false },
      },
    },
  });

  async function patch(id: string, status: string): Promise<Json> {
    const response = await broker.request('PATCH', `/v1/notifications/${id}`, { status });
    assert.equal(response.status, 200);
    return (await response.json()) as Json;
  }

  async function notificationsOfKey(key: string): Promise<Json[]> {
    return ((await snapshot(broker)) as Json[]).filter((dto) => dto['key'] === key);
  }

  describe('(none) → active', () => {
    it('creates an unkeyed request.created as a new active notification with 201', async () => {
      const reply = await post(broker, arcEvent());
      assert.equal(reply.status, 201);
      assert.equal(reply.body['status'], 'active');
      assert.equal('key' in reply.body, false);
    });

    it('creates a keyed request.created with 201 when no condition with the key is active', async () => {
      const key = unique('deploy');
      const reply = await post(broker, keyedEvent('request.created', key));
      assert.equal(reply.status, 201);
      assert.equal(reply.body['key'], key);
      assert.equal(reply.body['status'], 'active');
    });

    it('creates two notifications for two unkeyed events with different event_ids', async () => {
      const first = await post(broker, arcEvent());
      const second = await post(broker, arcEvent());
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.notEqual(first.body['id'], second.body['id']);
    });

    it('treats the same event_id from another sender as a different event', async () => {
      const event = arcEvent();
      const first = await post(broker, event);
      const second = await post(broker, { ...event, sender: { id: 'another-bot' } });
      assert.equal(second.status, 201);
      assert.notEqual(first.body['id'], second.body['id']);
    });
  });

  describe('replay of an unkeyed request.created', () => {
    it('returns the original notification with 200 and changes nothing', async () => {
      const event = arcEvent();
      const original = await post(broker, event);
      const before = await snapshot(broker);
      const replay = await post(broker, event);
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, original.body);
      assert.deepEqual(await snapshot(broker), before);
    });

    it('returns the original even when the retry carries different content', async () => {
      const event = arcEvent();
      const original = await post(broker, event);
      const replay = await post(broker, { ...event, request: { kind: 'failure', message: 'changed' } });
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, original.body);
    });

    it('returns the original with 200 even after it was resolved', async () => {
      const event = arcEvent();
      const original = await post(broker, event);
      await patch(original.body['id'] as string, 'resolved');
      const replay = await post(broker, event);
      assert.equal(replay.status, 200);
      assert.equal(replay.body['id'], original.body['id']);
      assert.equal(replay.body['status'], 'resolved');
    });

    it('returns the original with 200 after it was dismissed', async () => {
      const event = arcEvent();
      const original = await post(broker, event);
      await patch(original.body['id'] as string, 'dismissed');
      const replay = await post(broker, event);
      assert.equal(replay.status, 200);
      assert.equal(replay.body['status'], 'dismissed');
    });
  });

  describe('active → active', () => {
    it('refreshes the active condition in place on a keyed request.created (200, same id)', async () => {
      const key = unique('build');
      const first = await post(broker, keyedEvent('request.created', key, { message: 'Build 1 failed' }));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await post(
        broker,
        keyedEvent('request.created', key, { kind: 'failure', message: 'Build 2 failed' }),
      );
      assert.equal(second.status, 200);
      assert.equal(second.body['id'], first.body['id']);
      assert.equal(second.body['message'], 'Build 2 failed');
      assert.equal(second.body['type'], 'error');
      assert.equal(second.body['createdAt'], first.body['createdAt']);
      assert.ok((second.body['updatedAt'] as string) > (first.body['updatedAt'] as string));
      assert.equal((await notificationsOfKey(key)).length, 1);
    });

    it('replaces the visible state on request.updated (200)', async () => {
      const key = unique('review');
      const first = await post(
        broker,
        keyedEvent(
          'request.created',
          key,
          { kind: 'question', title: 'Review?', message: 'PR 1' },
          {
            context: { project: 'web' },
          },
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      const updated = await post(
        broker,
        keyedEvent('request.updated', key, {
          kind: 'blocked',
          message: 'PR 1 blocked on CI',
          priority: 'critical',
        }),
      );
      assert.equal(updated.status, 200);
      assert.equal(updated.body['id'], first.body['id']);
      assert.equal(updated.body['status'], 'active');
      assert.equal(updated.body['message'], 'PR 1 blocked on CI');
      assert.equal(updated.body['title'], 'Blocked: PR 1 blocked on CI');
      assert.equal(updated.body['type'], 'blocked');
      assert.equal(updated.body['priority'], 'critical');
      assert.equal('project' in updated.body, false, 'the update replaces, it does not merge');
      assert.equal(((updated.body['metadata'] as Json)['arc'] as Json)['event_type'], 'request.updated');
      assert.ok((updated.body['updatedAt'] as string) > (first.body['updatedAt'] as string));
    });

    it('updates a condition created natively: one key namespace', async () => {
      const key = unique('native');
      const native = await broker.request('POST', '/v1/notifications', { title: 't', message: 'm', key });
      const created = (await native.json()) as Json;
      const updated = await post(broker, keyedEvent('request.updated', key));
      assert.equal(updated.status, 200);
      assert.equal(updated.body['id'], created['id']);
    });
  });

  describe('active → resolved', () => {
    it('resolves the active condition on request.resolved (200)', async () => {
      const key = unique('deploy');
      const created = await post(broker, keyedEvent('request.created', key));
      const resolved = await post(broker, keyedEvent('request.resolved', key));
      assert.equal(resolved.status, 200);
      assert.equal(resolved.body['id'], created.body['id']);
      assert.equal(resolved.body['status'], 'resolved');
      assert.equal(typeof resolved.body['resolvedAt'], 'string');
      assert.equal((await getNotification(broker, created.body['id'] as string))['status'], 'resolved');
    });

    it('resolves the active one when an older one with the key was reopened after a newer one ended', async () => {
      const key = unique('flaky');
      const first = await post(broker, keyedEvent('request.created', key));
      await post(broker, keyedEvent('request.resolved', key));
      const second = await post(broker, keyedEvent('request.created', key));
      await patch(second.body['id'] as string, 'dismissed');
      await patch(first.body['id'] as string, 'active');
      const resolved = await post(broker, keyedEvent('request.resolved', key));
      assert.equal(resolved.status, 200);
      assert.equal(resolved.body['id'], first.body['id']);
      assert.equal(resolved.body['status'], 'resolved');
    });
  });

  describe('terminal → new lifecycle', () => {
    for (const terminal of ['resolved', 'dismissed']) {
      it(`starts a new notification (201) on a keyed request.created after the condition was ${terminal}`, async () => {
        const key = unique(`again-${terminal}`);
        const first = await post(broker, keyedEvent('request.created', key));
        await patch(first.body['id'] as string, terminal);
        const second = await post(broker, keyedEvent('request.created', key));
        assert.equal(second.status, 201);
        assert.notEqual(second.body['id'], first.body['id']);
        assert.equal(second.body['status'], 'active');
        assert.equal((await getNotification(broker, first.body['id'] as string))['status'], terminal);
        assert.equal((await notificationsOfKey(key)).length, 2);
      });
    }
  });

  describe('resolved → resolved', () => {
    it('answers a repeated request.resolved with 200 and the resolved notification, unchanged', async () => {
      const key = unique('done');
      await post(broker, keyedEvent('request.created', key));
      const first = await post(broker, keyedEvent('request.resolved', key));
      const before = await snapshot(broker);
      const again = await post(broker, keyedEvent('request.resolved', key));
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.deepEqual(await snapshot(broker), before);
    });

    it('answers request.resolved on a dismissed latest condition with 200, leaving it dismissed', async () => {
      const key = unique('dismissed');
      const created = await post(broker, keyedEvent('request.created', key));
      await patch(created.body['id'] as string, 'dismissed');
      const reply = await post(broker, keyedEvent('request.resolved', key));
      assert.equal(reply.status, 200);
      assert.equal(reply.body['id'], created.body['id']);
      assert.equal(reply.body['status'], 'dismissed');
    });
  });

  describe('none → 404, nothing created', () => {
    const cases: [string, () => Promise<Json>][] = [
      ['request.updated for a key never used', async () => keyedEvent('request.updated', unique('ghost'))],
      ['request.resolved for a key never used', async () => keyedEvent('request.resolved', unique('ghost'))],
      [
        'request.updated after the condition was resolved',
        async () => {
          const key = unique('gone');
          await post(broker, keyedEvent('request.created', key));
          await post(broker, keyedEvent('request.resolved', key));
          return keyedEvent('request.updated', key);
        },
      ],
    ];
    for (const [name, prepare] of cases) {
      it(`answers 404 notification not found to ${name}`, async () => {
        const event = await prepare();
        const before = await snapshot(broker);
        const reply = await post(broker, event);
        assert.equal(reply.status, 404);
        assert.deepEqual(reply.body, { error: 'notification not found' });
        assert.deepEqual(await snapshot(broker), before);
      });
    }
  });

  describe('mapping onto the Notification', () => {
    it('maps sender, context and request and keeps the rest under metadata.arc', async () => {
      const event = arcEvent({
        sender: { id: 'ci-bot', name: 'CI', version: '2.1', instance_id: 'runner-7' },
        context: { session_id: 's-1', correlation_id: 'c-1', project: 'web', cwd: '/src/web', pid: 4242 },
        request: { kind: 'permission', message: 'Allow rm -rf build/?' },
        extensions: { 'x-acme': { token: 'never copied' } },
      });
      const reply = await post(broker, event);
      assert.equal(reply.status, 201);
      const { id, createdAt, updatedAt, ...rest } = reply.body;
      assert.equal(typeof id, 'string');
      assert.equal(createdAt, updatedAt);
      assert.deepEqual(rest, {
        agent: 'ci-bot',
        agentInstance: 'runner-7',
        project: 'web',
        cwd: '/src/web',
        pid: 4242,
        type: 'permission_required',
        priority: 'high',
        title: 'Permission needed: Allow rm -rf build/?',
        message: 'Allow rm -rf build/?',
        status: 'active',
        revision: 1,
        metadata: {
          arc: {
            arc_version: '0.1',
            event_id: event['event_id'],
            event_type: 'request.created',
            occurred_at: '2026-05-01T12:00:00Z',
            sender: { name: 'CI', version: '2.1' },
            context: { session_id: 's-1', correlation_id: 'c-1' },
            request: { kind: 'permission' },
          },
        },
      });
    });

    it('lets request.priority override the kind default', async () => {
      const reply = await post(
        broker,
        arcEvent({ request: { kind: 'failure', message: 'm', priority: 'low' } }),
      );
      assert.equal(reply.body['priority'], 'low');
    });

    const selections: [string, string, string][] = [
      ['a built-in type', 'warning', 'high'],
      ['a configured custom type (priority still from the kind)', 'deploy_gate', 'high'],
      ['a disabled custom type, stored as given', 'retired', 'high'],
      ['an unknown custom type, stored as given', 'never_configured', 'high'],
    ];
    for (const [name, type, priority] of selections) {
      it(`selects ${name} through x-notify.notification_type`, async () => {
        const reply = await post(
          broker,
          arcEvent({
            request: { kind: 'question', message: 'm' },
            extensions: { 'x-notify': { notification_type: type } },
          }),
        );
        assert.equal(reply.status, 201);
        assert.equal(reply.body['type'], type);
        assert.equal(reply.body['priority'], priority);
      });
    }

    it('lists ARC notifications with the native filters', async () => {
      const agent = unique('lister');
      await post(broker, arcEvent({ sender: { id: agent } }));
      const response = await broker.request('GET', `/v1/notifications?agent=${agent}`);
      const list = (await response.json()) as Json[];
      assert.equal(list.length, 1);
      assert.equal(list[0]!['agent'], agent);
    });
  });
});
