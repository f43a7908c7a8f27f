import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useDesktop } from '../support/desktop-broker.js';

interface Created {
  id: string;
  status: string;
}

describe('toasts on the session D-Bus', () => {
  const desktop = useDesktop({
    types: {
      deploy: { enabled: true, lifetimeSeconds: 30, icon: 'system-software-update' },
      quiet: { enabled: false, lifetimeSeconds: 99, icon: 'face-quiet' },
      warning: { enabled: true, lifetimeSeconds: 20 },
      approval: { enabled: true, needsPerson: true, icon: 'dialog-question' },
      blocked: { enabled: true, needsPerson: false },
    },
  });

  async function create(body: Record<string, unknown>): Promise<Created> {
    const response = await desktop.broker.request('POST', '/v1/notifications', body);
    assert.ok(response.status === 201 || response.status === 200, `create answered ${response.status}`);
    return (await response.json()) as Created;
  }

  /** The toast a create produced; it then times out (unless kept), so slots never run out across tests. */
  async function toastFor(body: Record<string, unknown>, keepOpen = false) {
    const before = desktop.server.calls.length;
    await create(body);
    await desktop.server.until(() => desktop.server.calls.length > before);
    const call = desktop.server.calls[before]!;
    if (!keepOpen) desktop.server.expire(call.id);
    return call;
  }

  it('sends the exact Notify call for a stored notification', async () => {
    const call = await toastFor({
      title: 'Approve rm -rf build/?',
      message: 'Claude wants to run <rm> & clean',
      agent: 'claude',
      project: 'notify',
      type: 'permission_required',
      priority: 'critical',
    });
    assert.equal(call.appName, 'Notify');
    assert.equal(call.replacesId, 0);
    assert.equal(call.icon, 'dialog-password');
    assert.equal(call.summary, 'Approve rm -rf build/?');
    assert.equal(call.body, 'Claude wants to run &lt;rm&gt; &amp; clean\nclaude · notify');
    assert.deepEqual(call.actions, [
      'default',
      'Open Notify',
      'resolve',
      'Resolve',
      'dismiss',
      'Dismiss',
      'snooze',
      'Snooze 15 min',
    ]);
    assert.deepEqual(call.hints, {
      urgency: 2,
      category: 'x-notify.permission_required',
      'desktop-entry': 'notify',
    });
    assert.equal(call.expireTimeout, 0);
  });

  const lifetimes: [string, string, number, string, number][] = [
    // type sent, category, expire_timeout ms, icon, urgency (priority normal)
    ['input_required', 'x-notify.input_required', 0, 'dialog-question', 1],
    ['permission_required', 'x-notify.permission_required', 0, 'dialog-password', 1],
    ['error', 'x-notify.error', 0, 'dialog-error', 1],
    ['approval', 'x-notify.approval', 0, 'dialog-question', 1],
    ['blocked', 'x-notify.blocked', 7000, 'process-stop', 1],
    ['warning', 'x-notify.warning', 20000, 'dialog-warning', 1],
    ['info', 'x-notify.info', 7000, 'dialog-information', 1],
    ['success', 'x-notify.success', 5000, 'emblem-default', 1],
    ['completed', 'x-notify.completed', 5000, 'emblem-default', 1],
    ['deploy', 'x-notify.deploy', 30000, 'system-software-update', 1],
    ['quiet', 'x-notify.info', 7000, 'dialog-information', 1],
    ['never_defined', 'x-notify.info', 7000, 'dialog-information', 1],
  ];
  for (const [type, category, timeout, icon, urgency] of lifetimes) {
    it(`styles type ${type} with ${icon} and expire_timeout ${timeout}`, async () => {
      const call = await toastFor({ title: `a ${type}`, message: 'm', type });
      assert.equal(call.expireTimeout, timeout);
      assert.equal(call.icon, icon);
      assert.equal(call.hints['category'], category);
      assert.equal(call.hints['urgency'], urgency);
      assert.equal(call.body, 'm\nunknown');
    });
  }

  it('maps priority low to urgency 0 and high to urgency 1', async () => {
    assert.equal((await toastFor({ title: 'l', message: 'm', priority: 'low' })).hints['urgency'], 0);
    assert.equal((await toastFor({ title: 'h', message: 'm', priority: 'high' })).hints['urgency'], 1);
  });

  it('replaces the open toast when the same key is updated in place, never adding a second', async () => {
    const first = await toastFor(
      { title: 'Build 1/3', message: 'compiling', key: 'build-42', type: 'info' },
      true,
    );
    const second = await toastFor(
      { title: 'Build 2/3', message: 'testing', key: 'build-42', type: 'info' },
      true,
    );
    assert.equal(second.replacesId, first.id);
    assert.equal(second.id, first.id);
    assert.equal(second.summary, 'Build 2/3');
    assert.ok(desktop.server.open.has(first.id));
    assert.equal(desktop.server.open.size, 1);
    desktop.server.expire(first.id);
  });

  it('closes the open toast when its notification is resolved', async () => {
    const before = desktop.server.calls.length;
    const created = await create({ title: 'to resolve', message: 'm', type: 'blocked' });
    await desktop.server.until(() => desktop.server.calls.length > before);
    const toastId = desktop.server.calls[before]!.id;
    await desktop.broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'resolved' });
    await desktop.server.until(() => desktop.server.closeCalls.includes(toastId));
    assert.equal(desktop.server.open.has(toastId), false);
  });

  it('closes the open toast when its notification is dismissed', async () => {
    const before = desktop.server.calls.length;
    const created = await create({ title: 'to dismiss', message: 'm', type: 'blocked' });
    await desktop.server.until(() => desktop.server.calls.length > before);
    const toast = desktop.server.calls[before]!;
    assert.match(toast.summary, /to dismiss/);
    assert.ok(desktop.server.open.has(toast.id), 'the toast is open before the dismiss');
    const dismissed = await desktop.broker.request('POST', `/v1/notifications/${created.id}/dismiss`);
    assert.equal(dismissed.status, 200);
    await desktop.server.until(() => desktop.server.closeCalls.includes(toast.id));
    assert.equal(desktop.server.open.has(toast.id), false, 'the toast is gone from the desktop');
    assert.equal(desktop.server.calls.length, before + 1, 'the dismiss closes the toast and shows no other');
  });
});

describe('toasts on a server without actions or markup', () => {
  const desktop = useDesktop({}, { capabilities: ['body'] });

  it('sends no buttons and the body as plain text', async () => {
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 't',
      message: 'a < b & c',
      agent: 'codex',
    });
    await desktop.server.until(() => desktop.server.calls.length === 1);
    assert.deepEqual(desktop.server.calls[0]!.actions, []);
    assert.equal(desktop.server.calls[0]!.body, 'a < b & c\ncodex');
  });
});
