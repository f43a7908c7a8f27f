import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationRecord } from '../../../test/support/notification-record.js';
import type { NotificationRecord } from '../../domain/notification.js';
import { findEntry, MenuIds, type NumberedEntry } from './menu-ids.js';
import { trayState } from './tray-model.js';

const record = (id: string, title: string): NotificationRecord =>
  notificationRecord({ id, agent: 'claude', title });

const off = { pauseNotifications: false, doNotDisturb: false, types: {} };

const idOf = (menu: NumberedEntry[], label: string, child?: string): number => {
  const entry = menu.find((candidate) => candidate.label === label)!;
  return child ? entry.children!.find((candidate) => candidate.label === child)!.id : entry.id;
};

describe('menu ids', () => {
  it('gives every entry of a menu its own id', () => {
    const menu = new MenuIds().number(trayState([record('a', 'A'), record('b', 'B')], off).menu);
    const ids: number[] = [];
    const collect = (entries: NumberedEntry[]) =>
      entries.forEach((entry) => (ids.push(entry.id), collect(entry.children ?? [])));
    collect(menu);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(!ids.includes(0), 'id 0 is the root of the layout');
  });

  it('keeps an entry its id when entries before it go away', () => {
    const ids = new MenuIds();
    const before = ids.number(trayState([record('a', 'A'), record('b', 'B')], off).menu);
    const after = ids.number(trayState([record('b', 'B')], off).menu);
    for (const label of ['Pause notifications', 'Do not disturb', 'Quit Notify']) {
      assert.equal(idOf(after, label), idOf(before, label), label);
    }
    assert.equal(idOf(after, 'claude: B', 'Dismiss'), idOf(before, 'claude: B', 'Dismiss'));
  });

  it('never gives a vanished entry’s id to another, so a click from an old layout reaches nothing', () => {
    const ids = new MenuIds();
    const before = ids.number(trayState([record('a', 'A')], off).menu);
    const dismissA = idOf(before, 'claude: A', 'Dismiss');
    ids.number(trayState([], off).menu);
    const after = ids.number(trayState([record('b', 'B'), record('c', 'C')], off).menu);
    assert.equal(findEntry(after, dismissA), undefined);
  });

  it('finds a nested entry by its id', () => {
    const menu = new MenuIds().number(trayState([record('n1', 'Approve')], off).menu);
    const dismiss = menu[0]!.children![1]!;
    assert.deepEqual(findEntry(menu, dismiss.id)?.command, { op: 'dismiss', notificationId: 'n1' });
  });
});
