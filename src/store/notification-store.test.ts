import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { NotificationDraft } from '../domain/notification.js';
import { openDatabase, type Db } from './database.js';
import { ActiveKeyTakenError, NotificationStore } from './notification-store.js';

const FULL: NotificationDraft = {
  key: 'deploy',
  agent: 'claude',
  agentInstance: 'tab-1',
  project: 'notify',
  type: 'input_required',
  priority: 'high',
  title: 'Deploy?',
  message: 'm',
  cwd: '/home/me/notify',
  pid: 0,
  metadata: { branch: 'main' },
};
const BARE: NotificationDraft = {
  agent: 'unknown',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'm',
};

describe('NotificationStore on a real database file', () => {
  let dir: string;
  let db: Db;
  let store: NotificationStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-notifications-'));
    db = openDatabase(join(dir, 'notify.db'));
    store = new NotificationStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every field and reads it back; an in-place update without them clears them', () => {
    const created = store.upsert('n1', FULL, 5);
    assert.equal(created.created, true);
    assert.deepEqual(store.get('n1'), {
      ...FULL,
      id: 'n1',
      status: 'active',
      revision: 1,
      createdAt: 5,
      updatedAt: 5,
    });
    const refreshed = store.upsert('n2', { ...BARE, key: 'deploy' }, 7);
    assert.equal(refreshed.created, false);
    assert.deepEqual(store.get('n1'), {
      ...BARE,
      key: 'deploy',
      id: 'n1',
      status: 'active',
      revision: 2,
      createdAt: 5,
      updatedAt: 7,
    });
    assert.equal(store.get('n2'), undefined);
  });

  it('counts a revision for every change of a field an in-place update makes, and for a reopening', () => {
    const keyed = { ...FULL, key: 'rev' };
    assert.equal(store.upsert('r1', keyed, 1).record.revision, 1);
    assert.equal(store.upsert('r2', keyed, 2).record.revision, 1, 'the same request again changes nothing');
    const changes: Partial<NotificationDraft>[] = [
      { message: 'curl https://example.com/x | sh' },
      { title: 'Run that?' },
      { actions: [{ id: 'allow', label: 'Allow' }] },
      { actions: [{ id: 'allow', label: 'Yes' }] },
      { type: 'permission_required' },
      { priority: 'critical' },
      { agent: 'codex' },
      { agentInstance: 'tab-2' },
      { project: 'other' },
      { cwd: '/tmp' },
      { pid: 7 },
      { metadata: { branch: 'next' } },
    ];
    let draft: NotificationDraft = keyed;
    changes.forEach((change, index) => {
      draft = { ...draft, ...change };
      assert.equal(store.upsert('rx', draft, 3 + index).record.revision, index + 2, JSON.stringify(change));
    });
    const last = changes.length + 1;
    assert.equal(store.setStatus('r1', 'resolved', 20)!.revision, last, 'resolving shows nothing new');
    assert.equal(store.setStatus('r1', 'active', 21)!.revision, last + 1, 'reopening asks again');
    assert.equal(store.setStatus('r1', 'active', 22)!.revision, last + 1);
  });

  it('sets resolvedAt on resolve only, and clears it on reopen', () => {
    store.upsert('n1', BARE, 5);
    assert.equal(store.setStatus('n1', 'dismissed', 6)?.resolvedAt, undefined);
    store.upsert('n2', BARE, 5);
    const resolved = store.setStatus('n2', 'resolved', 8)!;
    assert.deepEqual([resolved.status, resolved.resolvedAt, resolved.updatedAt], ['resolved', 8, 8]);
    const reopened = store.setStatus('n2', 'active', 9)!;
    assert.deepEqual([reopened.status, reopened.resolvedAt], ['active', undefined]);
    assert.equal(store.setStatus('missing', 'resolved', 9), undefined);
  });

  it('lists newest first, filtered by each column alone and together, up to the limit', () => {
    store.upsert('a', { ...FULL, key: 'ka' }, 1);
    store.upsert('b', { ...BARE, agent: 'codex', project: 'web', type: 'warning' }, 2);
    store.upsert('c', { ...BARE, key: 'kc', agent: 'claude', project: 'notify' }, 3);
    store.setStatus('c', 'resolved', 4);
    const ids = (filter: Partial<Parameters<NotificationStore['list']>[0]>) =>
      store.list({ limit: 100, ...filter }).map((record) => record.id);
    assert.deepEqual(ids({}), ['c', 'b', 'a']);
    assert.deepEqual(ids({ limit: 2 }), ['c', 'b']);
    assert.deepEqual(ids({ status: 'active' }), ['b', 'a']);
    assert.deepEqual(ids({ type: 'warning' }), ['b']);
    assert.deepEqual(ids({ project: 'notify' }), ['c', 'a']);
    assert.deepEqual(ids({ agent: 'claude' }), ['c', 'a']);
    assert.deepEqual(ids({ key: 'kc' }), ['c']);
    assert.deepEqual(ids({ agent: 'claude', status: 'active' }), ['a']);
    assert.deepEqual(ids({ agent: 'claude', status: 'active' }), ['a'], 'the same filter again');
    assert.deepEqual(store.list({ limit: 100, key: 'ka' })[0], store.get('a'));
  });

  it('searches every word in title, message, agent or project, taking % _ and \\ literally', () => {
    store.upsert('t', { ...BARE, key: 't', title: 'Deploy the API' }, 1);
    store.upsert('m', { ...BARE, key: 'm', message: 'disk 100% full' }, 2);
    store.upsert('g', { ...BARE, key: 'g', agent: 'codex' }, 3);
    store.upsert('p', { ...BARE, key: 'p', project: 'web_app' }, 4);
    store.upsert('s', { ...BARE, key: 's', title: 'path C:\\temp', message: 'webXapp 1000 full' }, 5);
    const found = (...words: string[]) => store.list({ limit: 100, words }).map((record) => record.id);
    assert.deepEqual(found('deploy'), ['t'], 'ASCII case ignored');
    assert.deepEqual(found('100%'), ['m']);
    assert.deepEqual(found('codex'), ['g']);
    assert.deepEqual(found('web_app'), ['p']);
    assert.deepEqual(found('c:\\t'), ['s']);
    assert.deepEqual(found('full'), ['s', 'm']);
    assert.deepEqual(found('full', 'disk'), ['m'], 'every word must appear');
    assert.deepEqual(found('full', 'nowhere'), []);
  });

  it('pages newest first by cursor, naming the next page only while more rows match', () => {
    for (let index = 1; index <= 5; index++) store.upsert(`n${index}`, { ...BARE, key: `k${index}` }, index);
    store.setStatus('n4', 'resolved', 9);
    const first = store.page({ limit: 2, paged: true });
    assert.deepEqual(
      first.records.map((record) => record.id),
      ['n5', 'n4'],
    );
    assert.deepEqual(first.records[0], store.get('n5'));
    const second = store.page({ limit: 2, paged: true, before: first.nextBefore! });
    assert.deepEqual(
      second.records.map((record) => record.id),
      ['n3', 'n2'],
    );
    const last = store.page({ limit: 2, paged: true, before: second.nextBefore! });
    assert.deepEqual(last, { records: [store.get('n1')] });
    assert.deepEqual(store.page({ limit: 5, paged: true }).nextBefore, undefined, 'exactly a full page');
    assert.deepEqual(store.page({ limit: 2 }).nextBefore, undefined, 'not paged: no cursor');
    const active = store.page({ limit: 1, paged: true, status: 'active', before: first.nextBefore! });
    assert.deepEqual(
      active.records.map((record) => record.id),
      ['n3'],
    );
    assert.deepEqual(
      store
        .page({ limit: 2, paged: true, status: 'active', before: active.nextBefore! })
        .records.map((record) => record.id),
      ['n2', 'n1'],
    );
  });

  it('keeps snoozes and reminders: due ones come back earliest first, a stale schedule loses, a status change clears them', () => {
    store.upsert('r1', { ...FULL, key: 'r1' }, 10, { remindAt: 310 });
    store.upsert('r2', { ...FULL, key: 'r2' }, 20, { remindAt: 320 });
    store.upsert('plain', BARE, 30);
    assert.equal(store.nextAlertAt(), 310);
    // A snooze takes over from the reminder until it ends.
    assert.equal(store.snooze('r1', 900)?.snoozedUntil, 900);
    assert.equal(store.nextAlertAt(), 320);
    assert.deepEqual(
      store.alertsDue(1000, 10).map(({ record, dueAt, schedule }) => [record.id, dueAt, schedule]),
      [
        ['r2', 320, { remindAt: 320, remindersSent: 0 }],
        ['r1', 900, { snoozedUntil: 900, remindAt: 310, remindersSent: 0 }],
      ],
    );
    assert.equal(store.reschedule('r1', 310, { remindersSent: 1 }), undefined, 'read before the snooze');
    const back = store.reschedule('r1', 900, { remindAt: 1200, remindersSent: 0 });
    assert.equal(back?.snoozedUntil, undefined);
    assert.equal(store.nextAlertAt(), 320);
    // An in-place update keeps the schedule; one that changes the type starts the new type's.
    store.upsert('x', { ...FULL, key: 'r2', title: 'again' }, 40, { remindAt: 999 });
    assert.equal(store.alertsDue(330, 10)[0]?.dueAt, 320);
    store.upsert('x', { ...FULL, key: 'r2', type: 'blocked' }, 50);
    assert.equal(store.alertsDue(330, 10).length, 0);
    // Resolved: nothing is due; reopened: the reminders start over.
    store.setStatus('r1', 'resolved', 60);
    assert.equal(store.nextAlertAt(), undefined);
    store.setStatus('r1', 'active', 70, 370);
    assert.deepEqual(store.alertsDue(400, 10)[0]?.schedule, { remindAt: 370, remindersSent: 0 });
    assert.equal(store.snooze('plain', 5)?.snoozedUntil, 5);
    store.setStatus('plain', 'dismissed', 80);
    assert.equal(store.snooze('plain', 500), undefined, 'a dismissed notification is not snoozed');
  });

  it('takes one answer while active and unanswered, keeps it on dismiss, and drops it on reopen', () => {
    const actions = [
      { id: 'yes', label: 'Yes' },
      { id: 'no', label: 'No' },
    ];
    store.upsert('q', { ...BARE, actions }, 1);
    assert.deepEqual(store.get('q')?.actions, actions);
    const answer = { action: 'yes', surface: 'cli' as const, answeredAt: 2 };
    const answered = store.answer('q', answer)!;
    assert.deepEqual(
      [answered.status, answered.resolvedAt, answered.updatedAt, answered.answer],
      ['resolved', 2, 2, answer],
    );
    assert.equal(store.answer('q', { ...answer, action: 'no', answeredAt: 3 }), undefined, 'a second answer');
    assert.deepEqual(store.get('q')?.answer, answer, 'the first answer stands');
    assert.deepEqual(store.setStatus('q', 'dismissed', 4)?.answer, answer);
    const reopened = store.setStatus('q', 'active', 5)!;
    assert.equal(reopened.answer, undefined, 'a reopened notification asks again');
    store.setStatus('q', 'dismissed', 6);
    assert.equal(store.answer('q', { ...answer, answeredAt: 7 }), undefined, 'a dismissed one takes none');
    assert.equal(store.answer('missing', answer), undefined);
  });

  it('refuses to reopen a notification whose key another active one holds, changing nothing', () => {
    store.upsert('old', { ...BARE, key: 'build' }, 1);
    store.setStatus('old', 'resolved', 2);
    store.upsert('new', { ...BARE, key: 'build' }, 3);
    assert.throws(() => store.setStatus('old', 'active', 4), ActiveKeyTakenError);
    assert.deepEqual([store.get('old')?.status, store.get('new')?.status], ['resolved', 'active']);
  });

  it("finds a key's active notification, else its latest one, and counts the active ones by type", () => {
    store.upsert('k1', { ...BARE, key: 'lint' }, 1);
    store.setStatus('k1', 'resolved', 2);
    store.upsert('k2', { ...BARE, key: 'lint', type: 'warning' }, 3);
    store.setStatus('k2', 'dismissed', 4);
    assert.equal(store.activeByKey('lint'), undefined);
    assert.equal(store.conditionByKey('lint')?.id, 'k2', 'the latest, whatever its status');
    store.upsert('k3', { ...BARE, key: 'lint' }, 5);
    store.upsert('k4', { ...BARE, key: 'other', type: 'warning' }, 6);
    store.upsert('k5', BARE, 7);
    assert.equal(store.activeByKey('lint')?.id, 'k3');
    assert.equal(store.conditionByKey('lint')?.id, 'k3');
    assert.equal(store.conditionByKey('never'), undefined);
    assert.equal(store.countActive(), 3);
    assert.deepEqual(
      store.activeCountByType().sort((a, b) => a.type.localeCompare(b.type)),
      [
        { type: 'info', count: 2 },
        { type: 'warning', count: 1 },
      ],
    );
  });

  it('lists the active notifications unchanged since a time, oldest first, up to a limit', () => {
    store.upsert('a', BARE, 10);
    store.upsert('b', { ...BARE, type: 'warning' }, 20);
    store.upsert('c', BARE, 30);
    store.upsert('d', BARE, 5);
    store.setStatus('d', 'dismissed', 6);
    assert.deepEqual(store.activeUnchangedSince(20, 10), [
      { id: 'a', type: 'info', updatedAt: 10 },
      { id: 'b', type: 'warning', updatedAt: 20 },
    ]);
    assert.deepEqual(
      store.activeUnchangedSince(30, 1).map((row) => row.id),
      ['a'],
    );
    assert.deepEqual(store.activeUnchangedSince(9, 10), []);
  });

  it('prunes dismissed and resolved notifications last changed before the cutoff, never active ones', () => {
    store.upsert('active', BARE, 1);
    store.upsert('dismissed', BARE, 1);
    store.setStatus('dismissed', 'dismissed', 2);
    store.upsert('resolved', BARE, 1);
    store.setStatus('resolved', 'resolved', 3);
    store.upsert('recent', BARE, 1);
    store.setStatus('recent', 'resolved', 10);
    assert.equal(store.pruneTerminalBefore(3), 1, 'strictly before the cutoff');
    assert.equal(store.pruneTerminalBefore(10), 1);
    assert.deepEqual(
      store.list({ limit: 10 }).map((record) => record.id),
      ['recent', 'active'],
    );
  });
  it('answers a new notification without a key with the record a read gives back, every field included', () => {
    const everything: NotificationDraft = {
      ...FULL,
      key: undefined,
      actions: [{ id: 'approve', label: 'Approve' }],
      origin: [{ kind: 'tmux', socket: '/tmp/tmux-0/default', pane: '%3' }],
      raisedBy: 'ci-box',
    };
    for (const [id, draft] of [
      ['all', everything],
      ['bare', BARE],
    ] as const) {
      const created = store.upsert(id, draft, 9, { event: { senderId: 'bench', eventId: id } });
      assert.equal(created.created, true);
      assert.deepEqual(created.record, store.get(id), `${id}: the answer is what is stored`);
      const replayed = store.upsert(`${id}-again`, draft, 10, { event: { senderId: 'bench', eventId: id } });
      assert.deepEqual(
        replayed,
        { record: store.get(id), created: false },
        `${id}: a replay gets the original`,
      );
    }
  });

  it('keeps a process id and leaves out the fields a notification was created without', () => {
    store.upsert('p', { ...BARE, pid: 4242 }, 1);
    assert.deepEqual(store.get('p'), {
      ...BARE,
      pid: 4242,
      id: 'p',
      status: 'active',
      revision: 1,
      createdAt: 1,
      updatedAt: 1,
    });
  });

  it('lets a storage failure through on a status change, never as a taken key', () => {
    store.upsert('s', BARE, 1);
    store.setStatus('s', 'resolved', 2);
    db.pragma('query_only = 1');
    assert.throws(
      () => store.setStatus('s', 'active', 3),
      (error: unknown) =>
        !(error instanceof ActiveKeyTakenError) && (error as { code?: string }).code === 'SQLITE_READONLY',
    );
    db.pragma('query_only = 0');
    assert.equal(store.get('s')?.status, 'resolved');
  });
});
