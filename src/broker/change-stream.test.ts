import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationRecord } from '../../test/support/notification-record.js';
import type { NotificationRecord } from '../domain/notification.js';
import { ChangeStream, eventNames } from './change-stream.js';

const record = (id: string, status: NotificationRecord['status'] = 'active'): NotificationRecord =>
  notificationRecord({ id, status });

describe('ChangeStream', () => {
  it('names each kind of change as the stream documents it', () => {
    const answered: NotificationRecord = {
      ...record('1', 'resolved'),
      answer: { action: 'allow', surface: 'toast', answeredAt: 1 },
    };
    const table: [Parameters<typeof eventNames>[0], string[]][] = [
      [{ kind: 'created', record: record('1') }, ['notification.created']],
      [{ kind: 'updated', record: record('1'), previous: record('1') }, ['notification.updated']],
      [{ kind: 'status', record: record('1', 'resolved'), previous: 'active' }, ['notification.resolved']],
      [{ kind: 'status', record: record('1', 'dismissed'), previous: 'active' }, ['notification.dismissed']],
      [{ kind: 'status', record: record('1', 'active'), previous: 'resolved' }, ['notification.reopened']],
      [
        { kind: 'status', record: answered, previous: 'active' },
        ['notification.answered', 'notification.resolved'],
      ],
    ];
    for (const [change, names] of table) assert.deepEqual(eventNames(change), names);
  });

  it('replays exactly the events after the last one a client saw', () => {
    const stream = new ChangeStream(10, 1000);
    const seen: string[] = [];
    stream.subscribe((event) => seen.push(event.id));
    for (const id of ['a', 'b', 'c']) stream.append({ kind: 'created', record: record(id) });
    const resumption = stream.since(seen[0]!);
    assert.equal(resumption.kind, 'replay');
    assert.deepEqual(
      resumption.kind === 'replay' && resumption.events.map((event) => JSON.parse(event.data).id),
      ['b', 'c'],
    );
    assert.deepEqual(stream.since(seen[2]!), { kind: 'replay', events: [] });
  });

  it('asks for a reset when the missed events are gone, or the id is from another run', () => {
    const stream = new ChangeStream(2, 1000);
    const ids: string[] = [];
    stream.subscribe((event) => ids.push(event.id));
    for (const id of ['a', 'b', 'c', 'd']) stream.append({ kind: 'created', record: record(id) });
    assert.deepEqual(stream.since(ids[0]!), { kind: 'reset' });
    assert.equal(stream.since(ids[1]!).kind, 'replay');
    assert.deepEqual(new ChangeStream(2, 2000).since(ids[1]!), { kind: 'reset' });
    assert.deepEqual(stream.since('garbage'), { kind: 'reset' });
    assert.deepEqual(stream.since(`${(1000).toString(36)}-99`), { kind: 'reset' });
  });
});
