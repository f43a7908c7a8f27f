import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationRecord } from '../../../test/support/notification-record.js';
import type { NotificationRecord } from '../../domain/notification.js';
import { trayState } from './tray-model.js';

const record = (id: string, agent: string, title: string, type = 'input_required'): NotificationRecord =>
  notificationRecord({ id, agent, title, type });

const off = { pauseNotifications: false, doNotDisturb: false, types: {} };

describe('trayState', () => {
  const cases: [string, NotificationRecord[], string, string, string, string][] = [
    ['nothing active', [], 'Active', 'Notify', 'Nothing needs your attention', ''],
    [
      'one active',
      [record('a', 'claude', 'x')],
      'NeedsAttention',
      'Notify: 1 waiting',
      '1 notification waits',
      'Waiting: claude',
    ],
    [
      'several agents',
      [record('a', 'claude', 'x'), record('b', 'codex', 'y'), record('c', 'claude', 'z')],
      'NeedsAttention',
      'Notify: 3 waiting',
      '3 notifications wait',
      'Waiting: claude (2), codex',
    ],
  ];
  for (const [when, active, status, title, tooltipTitle, tooltipText] of cases) {
    it(`shows status, title and tooltip for ${when}`, () => {
      const state = trayState(active, off);
      assert.deepEqual(
        [state.status, state.title, state.tooltipTitle, state.tooltipText],
        [status, title, tooltipTitle, tooltipText],
      );
    });
  }

  it('counts only what needs a person: news types are listed, not waiting', () => {
    const active = [
      record('a', 'claude', 'Build done', 'completed'),
      record('b', 'codex', 'FYI', 'info'),
      record('c', 'claude', 'May I?', 'permission_required'),
      record('d', 'codex', 'Deployed', 'deploy'),
    ];
    const plain = trayState(active, off);
    assert.deepEqual(
      [plain.status, plain.icon, plain.title, plain.tooltipText],
      ['NeedsAttention', 'dialog-warning', 'Notify: 1 waiting', 'Waiting: claude'],
    );
    assert.equal(plain.menu.filter((entry) => entry.key.startsWith('notification:')).length, 4);
    const news = trayState(active.slice(0, 2), off);
    assert.deepEqual([news.status, news.icon, news.title], ['Active', 'emblem-default', 'Notify']);
    const deployNeedsPerson = trayState(active, {
      ...off,
      types: { deploy: { enabled: true, needsPerson: true } },
    });
    assert.equal(deployNeedsPerson.title, 'Notify: 2 waiting');
  });

  it('gives each notification Resolve and Dismiss entries that name it', () => {
    const state = trayState([record('n1', 'claude', 'Approve')], off);
    const entry = state.menu[0]!;
    assert.equal(entry.label, 'claude: Approve');
    assert.deepEqual(
      entry.children!.map((child) => child.command),
      [
        { op: 'resolve', notificationId: 'n1' },
        { op: 'dismiss', notificationId: 'n1' },
      ],
    );
    assert.deepEqual(
      entry.children!.map((child) => child.key),
      ['resolve:n1', 'dismiss:n1'],
    );
  });

  it('lists at most 20 notifications and says how many more wait', () => {
    const many = Array.from({ length: 23 }, (_, index) => record(`n${index}`, 'ci', `t${index}`));
    const labels = trayState(many, off).menu.map((entry) => entry.label);
    assert.equal(labels.filter((label) => label.startsWith('ci: ')).length, 20);
    assert.ok(labels.includes('and 3 more'));
  });

  it('checks pause and do not disturb when on, and their click turns them off', () => {
    const state = trayState([], { pauseNotifications: true, doNotDisturb: true, types: {} });
    const pause = state.menu.find((entry) => entry.label === 'Pause notifications')!;
    const dnd = state.menu.find((entry) => entry.label === 'Do not disturb')!;
    assert.equal(pause.checked, true);
    assert.deepEqual(pause.command, { op: 'pause', on: false });
    assert.deepEqual(dnd.command, { op: 'doNotDisturb', on: false });
  });
});

describe('trayState: Open Notify', () => {
  const keys = (canOpenPage: boolean | undefined) =>
    trayState([], { ...off, ...(canOpenPage !== undefined && { canOpenPage }) }).menu.map(
      (entry) => entry.key,
    );

  it('offers the web page after the notifications only when a program can open it', () => {
    assert.deepEqual(keys(true), ['nothing', 'separator', 'open', 'pause', 'doNotDisturb', 'quit']);
    const open = trayState([], { ...off, canOpenPage: true }).menu.find((entry) => entry.key === 'open')!;
    assert.equal(open.label, 'Open Notify');
    assert.deepEqual(open.command, { op: 'open' });
    for (const absent of [false, undefined])
      assert.deepEqual(keys(absent), ['nothing', 'separator', 'pause', 'doNotDisturb', 'quit']);
  });
});
