import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideAlert, firstReminderAt, reminderPolicy } from './reminders.js';
import { parseTypeDefinition } from './type-definition-body.js';

const MINUTE = 60_000;

describe('reminders: which types alert again, and what a due alert does (issue 20)', () => {
  it('permission and input requests remind every 5 minutes, 3 times; other types never, unless set', () => {
    assert.deepEqual(reminderPolicy('permission_required', {}), { everyMs: 5 * MINUTE, times: 3 });
    assert.deepEqual(reminderPolicy('input_required', {}), { everyMs: 5 * MINUTE, times: 3 });
    for (const type of ['blocked', 'error', 'completed', 'info', 'deploy'])
      assert.equal(reminderPolicy(type, {}), undefined, type);
    assert.deepEqual(reminderPolicy('deploy', { deploy: { enabled: true, remindEveryMinutes: 10 } }), {
      everyMs: 10 * MINUTE,
      times: 3,
    });
    assert.equal(
      reminderPolicy('input_required', { input_required: { enabled: true, remindTimes: 0 } }),
      undefined,
    );
    assert.equal(
      reminderPolicy('permission_required', {
        permission_required: { enabled: true, remindEveryMinutes: 0 },
      }),
      undefined,
    );
    // A disabled definition does not count: the built-in default applies.
    assert.deepEqual(
      reminderPolicy('input_required', { input_required: { enabled: false, remindTimes: 9 } }),
      { everyMs: 5 * MINUTE, times: 3 },
    );
  });

  it('a new (or reopened) request first reminds one interval after it starts; a type that never reminds, never', () => {
    const now = Date.UTC(2026, 10, 28, 21, 0);
    assert.equal(firstReminderAt(reminderPolicy('permission_required', {}), now), now + 5 * MINUTE);
    assert.equal(firstReminderAt(reminderPolicy('completed', {}), now), undefined);
  });

  it('a reminder spends one of its times and schedules the next until they are used up', () => {
    const policy = { everyMs: 5 * MINUTE, times: 2 };
    const first = decideAlert({ remindAt: 100, remindersSent: 0 }, policy, 100, undefined);
    assert.deepEqual(first, {
      kind: 'alert',
      reason: 'reminder',
      next: { remindersSent: 1, remindAt: 100 + 5 * MINUTE },
    });
    const second = decideAlert(first.next, policy, 200, undefined);
    assert.deepEqual(second, { kind: 'alert', reason: 'reminder', next: { remindersSent: 2 } });
    assert.deepEqual(decideAlert({ remindAt: 300, remindersSent: 2 }, policy, 300, undefined), {
      kind: 'stop',
      next: { remindersSent: 2 },
    });
    assert.equal(decideAlert({ remindAt: 300, remindersSent: 0 }, undefined, 300, undefined).kind, 'stop');
  });

  it("a snooze's end alerts without spending a reminder and restarts the interval", () => {
    const policy = { everyMs: 5 * MINUTE, times: 3 };
    assert.deepEqual(
      decideAlert({ snoozedUntil: 1000, remindAt: 400, remindersSent: 1 }, policy, 1000, undefined),
      {
        kind: 'alert',
        reason: 'snooze',
        next: { remindersSent: 1, remindAt: 1000 + 5 * MINUTE },
      },
    );
    // A type that never reminds still comes back after its snooze.
    assert.deepEqual(decideAlert({ snoozedUntil: 1000, remindersSent: 0 }, undefined, 1000, undefined), {
      kind: 'alert',
      reason: 'snooze',
      next: { remindersSent: 0 },
    });
  });

  it('quiet hours move a due reminder or snooze end to their end, spending nothing', () => {
    assert.deepEqual(
      decideAlert({ remindAt: 100, remindersSent: 1 }, { everyMs: MINUTE, times: 3 }, 100, 9000),
      {
        kind: 'defer',
        next: { remindAt: 9000, remindersSent: 1 },
      },
    );
    assert.deepEqual(
      decideAlert({ snoozedUntil: 100, remindAt: 50, remindersSent: 0 }, undefined, 100, 9000),
      {
        kind: 'defer',
        next: { snoozedUntil: 9000, remindAt: 50, remindersSent: 0 },
      },
    );
  });

  it('type definitions take remindEveryMinutes and remindTimes within range, with clear messages', () => {
    assert.deepEqual(parseTypeDefinition({ remindEveryMinutes: 2.5, remindTimes: 4 }), {
      enabled: true,
      remindEveryMinutes: 2.5,
      remindTimes: 4,
    });
    assert.throws(() => parseTypeDefinition({ remindEveryMinutes: 1441 }), {
      message: 'remindEveryMinutes must be a number from 0 to 1440 (0: no reminders)',
    });
    assert.throws(() => parseTypeDefinition({ remindTimes: 1.5 }), {
      message: 'remindTimes must be a whole number from 0 to 20 (how many reminders at most; 0: none)',
    });
  });
});
