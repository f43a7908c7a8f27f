import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { NotificationChange } from '../broker/change-feed.js';
import type { NotificationRecord } from '../domain/notification.js';
import { FocusHold } from './focus-hold.js';

const record = (message: string, extra: Partial<NotificationRecord> = {}): NotificationRecord => ({
  id: 'n1',
  agent: 'claude',
  type: 'permission_required',
  priority: 'high',
  title: 'Permission needed',
  message,
  status: 'active',
  revision: 1,
  createdAt: 1,
  updatedAt: 1,
  origin: [{ kind: 'tmux', socket: '/tmp/s', pane: '%3' }],
  ...extra,
});

function hold(
  focused: boolean,
  current: () => NotificationRecord | undefined,
  graceSeconds = 0,
  quietWhileFocused = true,
) {
  const lines: string[] = [];
  const out: NotificationChange[] = [];
  const asked: string[] = [];
  let answer: (value: boolean) => void = () => {};
  const gate = new FocusHold({
    settings: () => ({ quietWhileFocused, focusGraceSeconds: graceSeconds }),
    hasFocus: (asking) => {
      asked.push(asking.id);
      return new Promise((resolve) => (answer = resolve));
    },
    current: () => current(),
    log: { info: (line) => lines.push(line) },
  });
  gate.out.subscribe((change) => out.push(change));
  return { gate, out, lines, asked, decide: () => answer(focused) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('FocusHold', () => {
  it('passes a request at once when its place does not have the focus', async () => {
    const { gate, out, decide } = hold(false, () => undefined);
    gate.onChange({ kind: 'created', record: record('first') });
    assert.equal(out.length, 0);
    decide();
    await tick();
    assert.deepEqual(
      out.map((change) => change.record.message),
      ['first'],
    );
  });

  it('after the grace time shows the request as it is then, one toast for a create and its updates', async () => {
    const now = record('updated while waiting', { revision: 2 });
    const { gate, out, decide } = hold(true, () => now);
    gate.onChange({ kind: 'created', record: record('first') });
    gate.onChange({ kind: 'updated', record: now, previous: record('first') });
    decide();
    await tick();
    assert.equal(out.length, 1);
    assert.equal(out[0]!.kind, 'created');
    assert.equal(out[0]!.record.message, 'updated while waiting');
  });

  it('after the grace time shows nothing when the request is no longer active then', async () => {
    const { gate, out, decide } = hold(true, () => record('first', { status: 'resolved' }));
    gate.onChange({ kind: 'created', record: record('first') });
    decide();
    await tick();
    assert.deepEqual(out, []);
  });

  it('waits the whole grace time, in seconds, before it shows a request whose place has the focus', async (t: TestContext) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { gate, out, decide } = hold(true, () => record('first'), 2);
    gate.onChange({ kind: 'created', record: record('first') });
    decide();
    await new Promise(setImmediate);
    t.mock.timers.tick(1_999);
    assert.equal(out.length, 0, 'nothing before the grace time is over');
    t.mock.timers.tick(1);
    assert.deepEqual(
      out.map((change) => change.record.message),
      ['first'],
    );
  });

  it('an update of an update on hold keeps what the request was before the first one', async () => {
    const { gate, out, decide } = hold(false, () => undefined);
    const before = record('before', { priority: 'normal' });
    const between = record('between', { revision: 2 });
    gate.onChange({ kind: 'updated', record: between, previous: before });
    gate.onChange({ kind: 'updated', record: record('after', { revision: 3 }), previous: between });
    decide();
    await tick();
    assert.equal(out.length, 1);
    const [shown] = out;
    assert.ok(shown?.kind === 'updated', 'one update is shown');
    assert.deepEqual([shown.record.message, shown.previous.message], ['after', 'before']);
  });

  it('drops a request that ended while its place had the focus, and passes the status change on', async () => {
    const { gate, out, lines, decide } = hold(true, () => record('first'), 600);
    gate.onChange({ kind: 'created', record: record('first') });
    decide();
    await tick();
    gate.onChange({ kind: 'status', record: record('first', { status: 'resolved' }), previous: 'active' });
    await tick();
    assert.deepEqual(
      out.map((change) => change.kind),
      ['status'],
    );
    assert.deepEqual(lines, [
      'notification n1: its place has focus; toast and sound wait 600 s (quietWhileFocused)',
      'notification n1: no toast or sound, it ended while its place had focus',
    ]);
  });

  it('a request that ends while its focus is still being asked about shows nothing afterwards', async () => {
    const { gate, out, decide } = hold(false, () => undefined);
    gate.onChange({ kind: 'created', record: record('first') });
    gate.onChange({ kind: 'status', record: record('first', { status: 'resolved' }), previous: 'active' });
    decide();
    await tick();
    assert.deepEqual(
      out.map((change) => change.kind),
      ['status'],
    );
  });

  it('an update while the focus is asked about is what shows when the place turns out not to have it', async () => {
    const { gate, out, decide } = hold(false, () => undefined);
    gate.onChange({ kind: 'created', record: record('first') });
    gate.onChange({ kind: 'updated', record: record('second', { revision: 2 }), previous: record('first') });
    decide();
    await tick();
    assert.deepEqual(
      out.map((change) => [change.kind, change.record.message]),
      [['created', 'second']],
    );
  });

  it('shows nothing after it stopped, even when the focus answer comes later', async () => {
    const { gate, out, decide } = hold(false, () => undefined);
    gate.onChange({ kind: 'created', record: record('first') });
    gate.stop();
    decide();
    await tick();
    assert.deepEqual(out, []);
  });

  it('with quietWhileFocused off, lets a notification with an origin through synchronously, never asking for the focus', () => {
    const { gate, out, asked } = hold(true, () => record('first'), 600, false);
    gate.onChange({ kind: 'created', record: record('first') });
    assert.deepEqual(
      out.map((change) => change.record.message),
      ['first'],
    );
    assert.deepEqual(asked, []);
  });

  it('lets a notification without an origin through synchronously', () => {
    const { gate, out } = hold(true, () => undefined);
    const bare = record('no origin');
    delete bare.origin;
    gate.onChange({ kind: 'created', record: bare });
    assert.equal(out.length, 1);
  });
});
