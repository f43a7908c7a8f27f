import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replaceConfigFile, readConfigFile } from '../support/broker-process.js';
import { waitForLog } from '../support/broker-log.js';
import { useDesktop } from '../support/desktop-broker.js';

interface Created {
  id: string;
  status: string;
}

describe('the toast queue with maxVisibleToasts = 2', () => {
  const desktop = useDesktop({ maxVisibleToasts: 2 });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  async function create(body: Record<string, unknown>): Promise<Created> {
    const response = await desktop.broker.request('POST', '/v1/notifications', body);
    assert.equal(response.status, 201);
    return (await response.json()) as Created;
  }
  const summaries = () => desktop.server.calls.map((call) => call.summary);
  const expireAll = () => [...desktop.server.open].forEach((id) => desktop.server.expire(id));

  it('shows two and queues the rest; a critical one shows at once in the oldest slot, which comes back first', async () => {
    await create({ title: 'one', message: 'm', type: 'blocked' });
    await create({ title: 'two', message: 'm', type: 'blocked' });
    await create({ title: 'three', message: 'm', type: 'blocked' });
    await desktop.server.until(() => desktop.server.calls.length === 2);
    await settle();
    assert.deepEqual(summaries(), ['one', 'two']);

    const one = desktop.server.calls[0]!.id;
    await create({ title: 'urgent', message: 'm', type: 'blocked', priority: 'critical' });
    await desktop.server.until(() => desktop.server.calls.length === 3);
    assert.equal(desktop.server.calls[2]!.summary, 'urgent');
    assert.ok(desktop.server.closeCalls.includes(one), "'one' gave up its place");
    await desktop.server.until(() => desktop.server.open.size === 2);

    desktop.server.expire(desktop.server.calls[2]!.id);
    await desktop.server.until(() => desktop.server.calls.length === 4);
    assert.equal(desktop.server.calls[3]!.summary, 'one', "'one' comes back before 'three'");
    assert.equal(desktop.server.calls[3]!.replacesId, 0);

    desktop.server.expire(desktop.server.calls[1]!.id);
    await desktop.server.until(() => desktop.server.calls.length === 5);
    assert.equal(desktop.server.calls[4]!.summary, 'three');
    assert.equal(desktop.server.open.size, 2);
    expireAll();
  });

  it('never shows a queued toast whose notification was resolved or dismissed meanwhile', async () => {
    const start = desktop.server.calls.length;
    await create({ title: 'visible A', message: 'm', type: 'blocked' });
    await create({ title: 'visible B', message: 'm', type: 'blocked' });
    const resolved = await create({ title: 'resolved while queued', message: 'm', type: 'blocked' });
    const dismissed = await create({ title: 'dismissed while queued', message: 'm', type: 'blocked' });
    await create({ title: 'last', message: 'm', type: 'blocked' });
    await desktop.broker.request('PATCH', `/v1/notifications/${resolved.id}`, { status: 'resolved' });
    await desktop.broker.request('POST', `/v1/notifications/${dismissed.id}/dismiss`);
    await desktop.server.until(() => desktop.server.calls.length === start + 2);
    expireAll();
    await desktop.server.until(() => desktop.server.calls.length === start + 3);
    await settle();
    assert.deepEqual(summaries().slice(start), ['visible A', 'visible B', 'last']);
    expireAll();
  });

  it('turns a Resolve button press into a resolved notification, and logs it', async () => {
    const created = await create({ title: 'press resolve', message: 'm', type: 'input_required' });
    await desktop.server.until(() => desktop.server.calls.some((call) => call.summary === 'press resolve'));
    const toast = desktop.server.calls.find((call) => call.summary === 'press resolve')!;
    desktop.server.invokeAction(toast.id, 'resolve');
    await desktop.server.until(() => desktop.server.closeCalls.includes(toast.id));
    const stored = (await (
      await desktop.broker.request('GET', `/v1/notifications/${created.id}`)
    ).json()) as Created;
    assert.equal(stored.status, 'resolved');
    await waitForLog(desktop.broker.home, `notification ${created.id} resolved from its toast`);
  });

  it('turns a Dismiss button press into a dismissed notification, and logs it', async () => {
    const created = await create({ title: 'press dismiss', message: 'm', type: 'input_required' });
    await desktop.server.until(() => desktop.server.calls.some((call) => call.summary === 'press dismiss'));
    const toast = desktop.server.calls.find((call) => call.summary === 'press dismiss')!;
    desktop.server.invokeAction(toast.id, 'dismiss');
    await desktop.server.until(() => desktop.server.closeCalls.includes(toast.id));
    const stored = (await (
      await desktop.broker.request('GET', `/v1/notifications/${created.id}`)
    ).json()) as Created;
    assert.equal(stored.status, 'dismissed');
    await waitForLog(desktop.broker.home, `notification ${created.id} dismissed from its toast`);
  });

  it('shows nothing while pauseNotifications is on, and toasts again once it is off', async () => {
    const config = readConfigFile(desktop.broker.home);
    replaceConfigFile(desktop.broker.home, { ...config, pauseNotifications: true });
    await waitForLog(desktop.broker.home, 'config reloaded: pauseNotifications');
    const start = desktop.server.calls.length;
    const paused = await create({ title: 'while paused', message: 'm' });
    await settle();
    assert.equal(desktop.server.calls.length, start);
    const stored = (await (
      await desktop.broker.request('GET', `/v1/notifications/${paused.id}`)
    ).json()) as Created;
    assert.equal(stored.status, 'active');

    replaceConfigFile(desktop.broker.home, { ...config, pauseNotifications: false });
    await new Promise((resolve) => setTimeout(resolve, 800));
    await create({ title: 'after the pause', message: 'm' });
    await desktop.server.until(() => desktop.server.calls.length === start + 1);
    assert.equal(desktop.server.calls[start]!.summary, 'after the pause');
    expireAll();
  });
  it('answers a burst of 1,000 creates with two toasts and a queue, and stays responsive', async () => {
    expireAll();
    const start = desktop.server.calls.length;
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, index) =>
        desktop.broker.request('POST', '/v1/notifications', { title: `burst ${index}`, message: 'm' }),
      ),
    );
    assert.ok(answers.every((answer) => answer.status === 201));
    const health = await desktop.broker.request('GET', '/v1/health');
    assert.equal(health.status, 200);
    await desktop.server.until(() => desktop.server.calls.length === start + 2);
    await settle();
    assert.equal(desktop.server.calls.length, start + 2);
    assert.equal(desktop.server.open.size, 2);
    expireAll();
    await desktop.server.until(() => desktop.server.calls.length === start + 4);
    expireAll();
  });
});
