import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startTestRelay, type TestRelay } from '../support/test-relay.js';
import { waitFor } from '../support/wait-for.js';
import { notify, pair, profileOf, routeEverythingTo, states } from './relay-cli.js';

interface Dto {
  id: string;
  status: string;
  answer?: { action: string; surface: string };
}

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/**
 * The relay provider in the real notifyd against the test relay: pairing makes the profile, a route
 * delivers, lifecycle sync follows the desk, and the answers come back through the event stream.
 */
describe('relay provider: delivery, lifecycle and answers back', () => {
  let broker: BrokerProcess;
  let relay: TestRelay;
  let providerId: string;

  before(async () => {
    broker = await startBroker();
    relay = await startTestRelay({ name: 'Phone relay' });
    assert.equal((await pair(broker, relay)).code, 0);
    providerId = (await profileOf(broker, relay))!.id;
    await routeEverythingTo(broker, providerId);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await relay.close();
  });

  async function create(body: Record<string, unknown>): Promise<Dto> {
    const response = await broker.request('POST', '/v1/notifications', { message: 'm', ...body });
    assert.equal(response.status, 201);
    return (await response.json()) as Dto;
  }

  async function get(id: string): Promise<Dto> {
    return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Dto;
  }

  const delivered = (id: string, lifecycle = 1) =>
    waitFor(
      () => relay.notifications.get(id)?.lifecycle === lifecycle && relay.notifications.get(id),
      `lifecycle ${lifecycle} of ${id} on the relay`,
    );

  it('delivers with the idempotency key and applies an answer from the phone once, with surface relay', async () => {
    const created = await create({
      title: 'Run npm publish?',
      type: 'permission_required',
      actions: ACTIONS,
    });
    const stored = await delivered(created.id);
    assert.deepEqual(stored.body['actions'], ACTIONS);
    const put = relay.calls.find(
      (call) => call.method === 'PUT' && call.path === `/v1/notifications/${created.id}`,
    );
    assert.equal(put?.headers['idempotency-key'], `${created.id}.${await routeId()}`);
    await waitFor(() => relay.openStreams() === 1, 'the event stream');
    relay.answer(created.id, 'allow');
    const answered = await waitFor(async () => {
      const now = await get(created.id);
      return now.answer !== undefined && now;
    }, 'the answer');
    assert.equal(answered.status, 'resolved');
    assert.deepEqual(
      { action: answered.answer?.action, surface: answered.answer?.surface },
      { action: 'allow', surface: 'relay' },
    );
    // The resolve the answer caused is synced back: the relay already had it resolved, and stays so.
    await waitFor(
      () =>
        relay.calls.some(
          (call) => call.method === 'POST' && call.path === `/v1/notifications/${created.id}/status`,
        ),
      'the clear',
    );
    // A reconnect resumes after the last event applied; the answer is not applied twice.
    const streamsBefore = relay.calls.filter((call) => call.path === '/v1/events').length;
    relay.dropStreams();
    const resumed = await waitFor(
      () => relay.calls.filter((call) => call.path === '/v1/events')[streamsBefore],
      'the reconnect',
    );
    assert.equal(resumed.headers['last-event-id'], '43');
    assert.equal(
      readLog(broker.home).match(new RegExp(`answer: notification ${created.id}`, 'g'))?.length,
      1,
    );
  });

  it('gives the phone what the desk shows: title, message, who asked, the project, type and priority', async () => {
    const shown = {
      title: 'Tests failed',
      message: '3 of 120 failed in checkout.test.ts',
      agent: 'claude-code',
      project: 'shop',
      type: 'error',
      priority: 'high',
    };
    const created = await create(shown);
    const { body } = await delivered(created.id);
    const fields = [...Object.keys(shown), 'status'];
    assert.deepEqual(Object.fromEntries(fields.map((field) => [field, body[field]])), {
      ...shown,
      status: 'active',
    });
  });

  it('says message_included false for a title-only route, so a phone push shows no body', async () => {
    const id = await routeId();
    assert.equal((await broker.request('PATCH', `/v1/routes/${id}`, { includeMessage: false })).status, 200);
    try {
      const created = await create({ title: 'Secret run', message: 'curl -H "token: abc" …' });
      const stored = await delivered(created.id);
      assert.equal(stored.body['message_included'], false);
      assert.ok(!JSON.stringify(stored.body).includes('token: abc'), 'the message stays on the laptop');
      const withMessage = await (async () => {
        await broker.request('PATCH', `/v1/routes/${id}`, { includeMessage: true });
        return delivered((await create({ title: 'Plain run' })).id);
      })();
      assert.equal(withMessage.body['message_included'], undefined);
    } finally {
      await broker.request('PATCH', `/v1/routes/${id}`, { includeMessage: true });
    }
  });

  it('drops an answer for an older lifecycle and applies the one for the lifecycle delivered last', async () => {
    const created = await create({ title: 'Deploy?', key: 'deploy', actions: ACTIONS });
    await delivered(created.id);
    await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'resolved' });
    await waitFor(
      () => relay.notifications.get(created.id)?.status === 'resolved',
      'the resolve on the relay',
    );
    await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'active' });
    await delivered(created.id, 2);
    relay.answer(created.id, 'deny', 1);
    await waitForLog(broker.home, `answer for notification ${created.id} (lifecycle 1) dropped`);
    assert.equal((await get(created.id)).status, 'active');
    relay.answer(created.id, 'allow', 2);
    const answered = await waitFor(async () => {
      const now = await get(created.id);
      return now.answer !== undefined && now;
    }, 'the answer of lifecycle 2');
    assert.equal(answered.answer?.action, 'allow');
  });

  it('drops an answer for the older lifecycle that arrives while the reopen is delivered but not yet confirmed', async () => {
    const created = await create({ title: 'Migrate?', key: 'migrate', actions: ACTIONS });
    await delivered(created.id);
    await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'resolved' });
    await waitFor(
      () => relay.notifications.get(created.id)?.status === 'resolved',
      'the resolve on the relay',
    );
    // The relay takes the reopen (lifecycle 2), but its answer to notifyd is slow to come back.
    const release = relay.holdPutResponses();
    try {
      await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'active' });
      await delivered(created.id, 2);
      relay.answer(created.id, 'deny', 1);
      await waitForLog(
        broker.home,
        `answer for notification ${created.id} (lifecycle 1) waits for the delivery under way`,
      );
    } finally {
      release();
    }
    await waitForLog(broker.home, `answer for notification ${created.id} (lifecycle 1) dropped`);
    const now = await get(created.id);
    assert.deepEqual({ status: now.status, answer: now.answer }, { status: 'active', answer: undefined });
  });

  it('resolves a desk notification when it is dismissed on the phone, and clears the phone on a desk resolve', async () => {
    const first = await create({ title: 'Build failed' });
    await delivered(first.id);
    relay.endFromPhone(first.id, 'dismissed');
    await waitFor(async () => (await get(first.id)).status === 'dismissed', 'the dismiss from the phone');
    const second = await create({ title: 'Tests are green' });
    await delivered(second.id);
    await broker.request('PATCH', `/v1/notifications/${second.id}`, { status: 'resolved' });
    await waitFor(
      () => relay.notifications.get(second.id)?.status === 'resolved',
      'the resolve on the relay',
    );
  });

  it('ignores an answer for a notification it never delivered there', async () => {
    const local = await create({ title: 'Only here', actions: ACTIONS, priority: 'low', key: 'local' });
    relay.answer(local.id, 'allow', 1);
    await waitForLog(broker.home, `answer for notification ${local.id} (lifecycle 1) dropped`);
    assert.equal((await get(local.id)).answer, undefined);
  });

  it('shows the connection in notify relay status, and the revocation once the relay revokes it', async () => {
    const connected = await notify(broker, 'relay', 'status');
    assert.equal(connected.code, 0, connected.stderr);
    assert.equal(
      connected.stdout,
      [
        `Phone relay (${relay.url})`,
        '  connection:   connected',
        `  installation: test-laptop (${relay.installationId})`,
        `  profile:      enabled (${providerId})`,
        '',
      ].join('\n'),
    );
    relay.revoke();
    await waitForLog(
      broker.home,
      `relay: provider ${providerId}: the relay refuses the credential (HTTP 401`,
    );
    const revoked = await notify(broker, 'relay', 'status', '--json');
    assert.equal(revoked.code, 1);
    assert.deepEqual(states(revoked), [
      {
        id: providerId,
        name: 'Phone relay',
        url: relay.url,
        state: 'revoked',
        installation: null,
        disabled: false,
        summary:
          "Notify relay refuses this machine's credential (HTTP 401): the installation was revoked or deleted there; pair again.",
      },
    ]);
    assert.equal(revoked.stderr, '1 of 1 relay profile(s) not connected.\n');
    for (const credential of relay.credentials) assert.ok(!readLog(broker.home).includes(credential));
  });

  async function routeId(): Promise<string> {
    const routes = (await (await broker.request('GET', '/v1/routes')).json()) as { id: string }[];
    return routes[0]!.id;
  }
});

describe('relay answers across a restart of notifyd', () => {
  it('resumes from the stored Last-Event-ID: an answer given while notifyd was down arrives once', async () => {
    let broker = await startBroker();
    const relay = await startTestRelay();
    try {
      assert.equal((await pair(broker, relay)).code, 0);
      const providerId = (await profileOf(broker, relay))!.id;
      await broker.request('POST', `/v1/providers/${providerId}/enable`);
      const route = (await (await broker.request('POST', '/v1/routes', { providerId })).json()) as {
        id: string;
      };
      await broker.request('POST', `/v1/routes/${route.id}/enable`);
      const ids: string[] = [];
      for (const title of ['First', 'Second']) {
        const response = await broker.request('POST', '/v1/notifications', {
          title,
          message: 'm',
          actions: ACTIONS,
        });
        ids.push(((await response.json()) as Dto).id);
      }
      await waitFor(() => ids.every((id) => relay.notifications.has(id)), 'both delivered');
      await waitFor(() => relay.openStreams() === 1, 'the event stream');
      relay.answer(ids[0]!, 'allow');
      await waitForLog(broker.home, `answer: notification ${ids[0]}`);
      await broker.stop();
      relay.answer(ids[1]!, 'deny');
      broker = await startBroker({ home: broker.home });
      await waitForLog(broker.home, `answer: notification ${ids[1]}`);
      const last = relay.calls.filter((call) => call.path === '/v1/events').at(-1);
      assert.equal(last?.headers['last-event-id'], '43');
      const log = readLog(broker.home);
      assert.equal(log.match(new RegExp(`answer: notification ${ids[0]}`, 'g'))?.length, 1);
      assert.equal(
        log.match(new RegExp(`answer: notification ${ids[1]} action deny surface relay`, 'g'))?.length,
        1,
      );
    } finally {
      await broker.stop();
      broker.home.cleanup();
      await relay.close();
    }
  });
});
