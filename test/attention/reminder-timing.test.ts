/**
 * When reminders and snoozes come back, through the real broker: priority, not the quiet window alone,
 * decides what quiet hours hold back; a reopened request reminds again; and a snooze's end, or a new
 * request's first reminder, is alerted on time even when nothing else is due (the snooze or the request
 * itself wakes the reminder job).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { useBroker, type BrokerProcess } from '../support/broker-process.js';
import { createDrivenClock } from '../support/driven-clock.js';
import { callJson } from '../support/outbox-broker.js';
import { waitFor } from '../support/wait-for.js';

const MINUTE = 60_000;
/** Today at hh:00 UTC (the quiet hours below are in UTC). */
const todayAt = (hours: number) => {
  const day = new Date();
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours);
};

async function create(broker: BrokerProcess, body: Record<string, unknown>): Promise<string> {
  const created = await callJson(broker, 'POST', '/v1/notifications', { message: 'm', ...body });
  assert.equal(created.status, 201);
  return created.body!['id'] as string;
}

describe('quiet hours hold back reminders by priority', () => {
  const clock = createDrivenClock(todayAt(12));
  const broker = useBroker(clock.options);
  after(() => clock.cleanup());

  it('a critical request is reminded on time inside quiet hours; a high one waits for the window to end', async () => {
    const quietHours = { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' };
    assert.equal((await callJson(broker, 'PATCH', '/v1/settings', { quietHours })).status, 200);
    await clock.set(broker, todayAt(23));
    const critical = await create(broker, {
      title: 'Production is down, roll back?',
      type: 'permission_required',
      priority: 'critical',
    });
    const high = await create(broker, { title: 'Can wait', type: 'permission_required', priority: 'high' });
    await clock.advance(broker, 5 * MINUTE + 1000);
    await waitForLog(broker.home, `notification ${critical} alerts again: reminder 1 of 3`);
    await clock.set(broker, todayAt(7) + 24 * 60 * MINUTE + 1000);
    const held = await waitForLog(broker.home, `notification ${high} alerts again: reminder 1 of 3`);
    const log = readLog(broker.home);
    assert.ok(
      log.indexOf(held) > log.indexOf(`notification ${critical} alerts again: reminder 1 of 3`),
      'the high one only once the window ended',
    );
  });
});

describe('a reopened request reminds again', () => {
  const clock = createDrivenClock(todayAt(12));
  const broker = useBroker(clock.options);
  after(() => clock.cleanup());

  it('a request resolved and then reopened is reminded again, as a new one is', async () => {
    const id = await create(broker, { title: 'Deploy again?', type: 'permission_required' });
    const patch = (status: string) => callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status });
    assert.equal((await patch('resolved')).status, 200);
    await clock.advance(broker, MINUTE);
    assert.equal((await patch('active')).status, 200);
    await clock.advance(broker, 5 * MINUTE + 1000);
    await waitForLog(broker.home, `notification ${id} alerts again: reminder 1 of 3`);
  });

  it('a request whose reminders were all spent before it was resolved has all of them again once reopened', async () => {
    const id = await create(broker, { title: 'Ship the hotfix?', type: 'permission_required' });
    for (const nth of [1, 2, 3]) {
      await clock.advance(broker, 5 * MINUTE + 1000);
      await waitForLog(broker.home, `notification ${id} alerts again: reminder ${nth} of 3`);
    }
    const patch = (status: string) => callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status });
    assert.equal((await patch('resolved')).status, 200);
    await clock.advance(broker, MINUTE);
    assert.equal((await patch('active')).status, 200);
    await clock.advance(broker, 5 * MINUTE + 1000);
    const first = `notification ${id} alerts again: reminder 1 of 3`;
    await waitFor(
      () => readLog(broker.home).split(first).length - 1 === 2,
      'the first reminder of the reopened request',
      5000,
    );
  });

  it('a request snoozed, then resolved and reopened, is snoozed no more: it reminds after its interval', async () => {
    const id = await create(broker, { title: 'Rotate the keys?', type: 'permission_required' });
    const snoozed = await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, { minutes: 60 });
    assert.equal(snoozed.status, 200);
    const patch = (status: string) => callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status });
    const resolved = await patch('resolved');
    assert.equal(resolved.body!['snoozedUntil'], undefined, 'a resolved request shows no snooze');
    const reopened = await patch('active');
    assert.equal(reopened.body!['snoozedUntil'], undefined, 'the reopened request is not snoozed');
    await clock.advance(broker, 5 * MINUTE + 1000);
    await waitForLog(broker.home, `notification ${id} alerts again: reminder 1 of 3`);
  });
});

describe('a snooze wakes the reminder job', () => {
  const broker = useBroker();

  it('a notification snoozed for a minute comes back after that minute, with nothing else due', async () => {
    const id = await create(broker, { title: 'Look at this later', type: 'blocked' });
    const snoozed = await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, { minutes: 1 });
    assert.equal(snoozed.status, 200);
    // A minute of real time: nothing else moves the broker's clock or wakes its reminder job.
    await waitForLog(broker.home, `notification ${id} alerts again: its snooze ended`, 75_000);
    const after = await callJson(broker, 'GET', `/v1/notifications/${id}`);
    assert.equal(after.body!['snoozedUntil'], undefined);
  });
});

describe('a new request wakes the reminder job', () => {
  const broker = useBroker();

  it('the first reminder of a request on an idle broker comes after its interval, with nothing else due', async () => {
    // A type that reminds after 1.2 s: the job sleeps with nothing due until the request wakes it.
    const type = { remindEveryMinutes: 0.02, remindTimes: 1 };
    assert.equal((await callJson(broker, 'PUT', '/v1/types/nudge', type)).status, 201);
    const id = await create(broker, { title: 'Still waiting for you', type: 'nudge' });
    await waitForLog(broker.home, `notification ${id} alerts again: reminder 1 of 1`, 10_000);
  });
});
