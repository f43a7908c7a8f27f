import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToastQueue, type ToastCommand } from './toast-queue.js';
import type { ToastContent } from './toast-style.js';

const content = (id: string, critical = false): ToastContent => ({
  notificationId: id,
  revision: 1,
  summary: id,
  body: 'm\nagent',
  urgency: critical ? 2 : 1,
  icon: 'dialog-information',
  styleType: 'info',
  expireTimeoutMs: 7000,
  critical,
  actionable: true,
  focusable: false,
  choices: [],
});

const describeCommands = (commands: ToastCommand[]) =>
  commands.map(({ op, entry }) => `${op} ${entry.content.notificationId}`);

/** Marks shows as answered by the display with ids 1, 2, 3, ... */
function answer(commands: ToastCommand[], ids: { next: number }) {
  for (const { op, entry } of commands)
    if (op === 'show' && entry.displayId === 0) entry.displayId = ids.next++;
  return commands;
}

describe('ToastQueue', () => {
  it('opens up to maxVisible toasts and queues the rest', () => {
    const queue = new ToastQueue(() => 2);
    const shown = ['a', 'b', 'c'].flatMap((id) => describeCommands(queue.upsert(content(id))));
    assert.deepEqual(shown, ['show a', 'show b']);
    assert.equal(queue.openCount, 2);
    assert.equal(queue.queuedCount, 1);
  });

  it('shows a critical toast at once in the slot of the oldest lower one, which comes back first when room frees', () => {
    const queue = new ToastQueue(() => 2);
    const ids = { next: 1 };
    answer(queue.upsert(content('a')), ids);
    answer(queue.upsert(content('b')), ids);
    queue.upsert(content('c'));
    assert.deepEqual(describeCommands(answer(queue.upsert(content('urgent', true)), ids)), [
      'close a',
      'show urgent',
    ]);
    assert.equal(queue.openCount, 2);
    const back = queue.closed(3);
    assert.deepEqual(describeCommands(back), ['show a']);
    assert.equal(back[0]!.entry.displayId, 0, 'a new toast, not a replacement of the closed one');
    assert.deepEqual(queue.closed(1), [], 'the close of the displaced toast frees no slot');
    assert.deepEqual(describeCommands(queue.closed(2)), ['show c']);
  });

  it('lets a critical toast wait only while every open toast is critical too', () => {
    const queue = new ToastQueue(() => 1);
    const ids = { next: 1 };
    answer(queue.upsert(content('first', true)), ids);
    assert.deepEqual(queue.upsert(content('second', true)), []);
    assert.deepEqual(describeCommands(queue.closed(1)), ['show second']);
  });

  it('keeps a displaced toast waiting with its newest text, and drops it when its notification ends', () => {
    const queue = new ToastQueue(() => 1);
    const ids = { next: 1 };
    answer(queue.upsert(content('a')), ids);
    answer(queue.upsert(content('b')), ids);
    answer(queue.upsert(content('urgent', true)), ids);
    assert.deepEqual(queue.upsert({ ...content('a'), summary: 'a2' }), []);
    assert.deepEqual(queue.remove('a'), []);
    const [next] = queue.closed(2);
    assert.equal(next?.entry.content.notificationId, 'b');
  });

  it('replaces an open toast in place on update, with its display id', () => {
    const queue = new ToastQueue(() => 1);
    answer(queue.upsert(content('a')), { next: 7 });
    const [command] = queue.upsert({ ...content('a'), summary: 'a2' });
    assert.equal(command!.op, 'show');
    assert.equal(command!.entry.displayId, 7);
    assert.equal(command!.entry.content.summary, 'a2');
    assert.equal(queue.openCount, 1);
  });

  it('refreshes a queued toast without showing it or queueing it twice', () => {
    const queue = new ToastQueue(() => 1);
    queue.upsert(content('a'));
    queue.upsert(content('b'));
    assert.deepEqual(queue.upsert({ ...content('b'), summary: 'b2' }), []);
    assert.equal(queue.queuedCount, 1);
  });

  it('closes an open toast on remove and opens the next waiting one', () => {
    const queue = new ToastQueue(() => 1);
    answer(queue.upsert(content('a')), { next: 1 });
    queue.upsert(content('b'));
    assert.deepEqual(describeCommands(queue.remove('a')), ['close a', 'show b']);
  });

  it('drops a queued toast on remove, so it never appears', () => {
    const queue = new ToastQueue(() => 1);
    answer(queue.upsert(content('a')), { next: 1 });
    queue.upsert(content('b'));
    assert.deepEqual(queue.remove('b'), []);
    assert.deepEqual(queue.closed(1), []);
    assert.equal(queue.openCount, 0);
  });

  it('ignores closes of toasts it does not know', () => {
    const queue = new ToastQueue(() => 1);
    answer(queue.upsert(content('a')), { next: 1 });
    assert.deepEqual(queue.closed(99), []);
    assert.equal(queue.openCount, 1);
  });

  it('opens waiting toasts when maxVisible grows', () => {
    let max = 1;
    const queue = new ToastQueue(() => max);
    ['a', 'b', 'c'].forEach((id) => queue.upsert(content(id)));
    max = 3;
    assert.deepEqual(describeCommands(queue.fill()), ['show b', 'show c']);
  });

  it('follows a waiting toast whose update makes it critical', () => {
    const queue = new ToastQueue(() => 1);
    const ids = { next: 1 };
    answer(queue.upsert(content('open')), ids);
    queue.upsert(content('a'));
    queue.upsert(content('b'));
    queue.upsert(content('c'));
    assert.deepEqual(describeCommands(answer(queue.upsert(content('c', true)), ids)), [
      'close open',
      'show c',
    ]);
    const order: string[] = [];
    for (let displayId = 2; displayId <= 5; displayId++) {
      order.push(...describeCommands(answer(queue.closed(displayId), ids)));
    }
    assert.deepEqual(order, ['show open', 'show a', 'show b']);
    assert.equal(queue.queuedCount, 0);
  });

  it('keeps a burst of 1,000 to maxVisible shows', () => {
    const queue = new ToastQueue(() => 5);
    let shows = 0;
    for (let index = 0; index < 1000; index++) shows += queue.upsert(content(`n${index}`)).length;
    assert.equal(shows, 5);
    assert.equal(queue.queuedCount, 995);
  });

  it('forgets everything when the display goes away', () => {
    const queue = new ToastQueue(() => 1);
    queue.upsert(content('a'));
    queue.upsert(content('b'));
    queue.clear();
    assert.equal(queue.openCount + queue.queuedCount, 0);
  });
});
