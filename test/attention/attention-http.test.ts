import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess, type TempHome } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { createDrivenClock, type DrivenClock } from '../support/driven-clock.js';
import { startNotificationServer, type TestNotificationServer } from '../support/notification-server.js';
import { callJson, enabledRouteTo, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startPrivateBus, type PrivateBus } from '../support/session-bus.js';
import { createStandInPlayers, type StandInPlayers } from '../support/stand-in-player.js';
import { waitFor } from '../support/wait-for.js';

const MINUTE = 60_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Today at hh:mm UTC (the broker's quiet hours below are in UTC). */
const todayAt = (hours: number, minutes = 0) => {
  const day = new Date();
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
};

/**
 * A broker whose clock the test drives, on a private bus with a recording notification server, and
 * with stand-in sound players: every toast and every sound it makes is seen.
 */
describe('snooze, reminders and quiet hours through the real broker (issue 20)', () => {
  let bus: PrivateBus;
  let server: TestNotificationServer;
  let players: StandInPlayers;
  let clock: DrivenClock;
  let home: TempHome;
  let broker: BrokerProcess;
  let receiver: Receiver;

  const start = async () => {
    broker = await startBroker({ home, ...clock.options });
    await waitForLog(home, 'toasts are on');
  };

  before(async () => {
    bus = await startPrivateBus();
    server = await startNotificationServer(bus.address);
    players = createStandInPlayers(['paplay']);
    receiver = await startReceiver();
    clock = createDrivenClock(todayAt(12));
    home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    home.env['PATH'] = players.folder;
    await start();
  });
  after(async () => {
    await broker.stop();
    home.cleanup();
    clock.cleanup();
    players.cleanup();
    server.stop();
    await bus.stop();
    await receiver.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const { status, body: created } = await callJson(broker, 'POST', '/v1/notifications', {
      message: 'm',
      agent: 'claude',
      ...body,
    });
    assert.equal(status, 201);
    return created!;
  };
  const toastsOf = (title: string) => server.calls.filter((call) => call.summary === title);
  const sounds = () => players.calls().length;
  /** Moves the clock past the sound burst limit, so each alert below can play its sound. */
  const nextStep = async () => clock.advance(broker, 3000);

  it('refuses a snooze of a wrong length, of an unknown notification, or of one no longer active', async () => {
    const { id } = await create({ title: 'Refusals', type: 'info' });
    const CASES: [unknown, number, string][] = [
      [{ minutes: 0 }, 400, 'minutes must be a whole number from 1 to 1440'],
      [{ minutes: 1441 }, 400, 'minutes must be a whole number from 1 to 1440'],
      [{ minutes: 2.5 }, 400, 'minutes must be a whole number from 1 to 1440'],
      [{ minutes: '15' }, 400, 'minutes must be a whole number from 1 to 1440'],
      [{}, 400, 'minutes must be a whole number from 1 to 1440'],
      [{ minutes: 15, until: 'lunch' }, 400, 'unknown field "until"; allowed fields are minutes'],
      [[15], 400, 'request body must be a JSON object'],
    ];
    for (const [body, status, error] of CASES) {
      const answer = await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, body);
      assert.deepEqual([answer.status, answer.body!['error']], [status, error], JSON.stringify(body));
    }
    const missing = await callJson(broker, 'POST', '/v1/notifications/nope/snooze', { minutes: 5 });
    assert.deepEqual([missing.status, missing.body!['error']], [404, 'notification not found']);
    await callJson(broker, 'POST', `/v1/notifications/${id}/dismiss`);
    const closed = await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, { minutes: 5 });
    assert.deepEqual(
      [closed.status, closed.body!['error']],
      [409, 'notification is dismissed; only an active notification can be snoozed'],
    );
    // Answered or resolved is ended too: a snooze there would promise an alert that never comes.
    const { id: resolvedId } = await create({ title: 'Refusals, resolved', type: 'info' });
    await callJson(broker, 'PATCH', `/v1/notifications/${resolvedId}`, { status: 'resolved' });
    const ended = await callJson(broker, 'POST', `/v1/notifications/${resolvedId}/snooze`, { minutes: 5 });
    assert.deepEqual(
      [ended.status, ended.body!['error']],
      [409, 'notification is resolved; only an active notification can be snoozed'],
    );
    const unchanged = await callJson(broker, 'GET', `/v1/notifications/${resolvedId}`);
    assert.equal(unchanged.body!['snoozedUntil'], undefined);
  });

  it('a snooze closes the toast and keeps the notification quiet, then brings it back with its sound', async () => {
    await nextStep();
    const before = sounds() + 1;
    const { id } = await create({ title: 'Snoozed', type: 'blocked', key: 'snoozed' });
    await server.until(() => toastsOf('Snoozed').length === 1);
    await players.waitForCalls(before);

    const snoozed = await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, { minutes: 15 });
    assert.equal(snoozed.status, 200);
    const until = Date.parse(snoozed.body!['snoozedUntil'] as string);
    assert.ok(
      Math.abs(until - (clock.now() + 15 * MINUTE)) < 5000,
      'snoozed for 15 minutes of the broker clock',
    );
    const shown = toastsOf('Snoozed')[0]!.id;
    await server.until(() => server.closeCalls.includes(shown));
    await waitForLog(home, `snooze: notification ${id} for 15 min`);

    // An update while snoozed stays quiet, even one that asks for more.
    await nextStep();
    await create({ title: 'Snoozed', type: 'blocked', key: 'snoozed', priority: 'high' });
    await clock.advance(broker, 14 * MINUTE);
    await pause(300);
    assert.equal(toastsOf('Snoozed').length, 1, 'no toast while snoozed');
    assert.equal(sounds(), before, 'no sound while snoozed');
    assert.equal((await callJson(broker, 'GET', `/v1/notifications/${id}`)).body!['status'], 'active');

    await clock.advance(broker, MINUTE);
    await waitForLog(home, `notification ${id} alerts again: its snooze ended`);
    await server.until(() => toastsOf('Snoozed').length === 2);
    await players.waitForCalls(before + 1);
    assert.equal((await callJson(broker, 'GET', `/v1/notifications/${id}`)).body!['snoozedUntil'], undefined);
    await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
  });

  it('reminds of an unresolved permission request every 5 minutes, 3 times, each with toast and sound', async () => {
    await nextStep();
    const start = sounds();
    const { id } = await create({ title: 'Reminded', type: 'permission_required' });
    await server.until(() => toastsOf('Reminded').length === 1);
    await players.waitForCalls(start + 1);
    const quietOne = await create({ title: 'Never reminded', type: 'completed' });
    const resolvedOne = await create({ title: 'Resolved early', type: 'input_required' });
    await callJson(broker, 'PATCH', `/v1/notifications/${resolvedOne.id}`, { status: 'resolved' });
    for (const round of [1, 2, 3]) {
      await clock.advance(broker, 5 * MINUTE);
      await waitForLog(home, `notification ${id} alerts again: reminder ${round} of 3`);
      await server.until(() => toastsOf('Reminded').length === round + 1);
      await players.waitForCalls(start + 1 + round);
    }
    await clock.advance(broker, 5 * MINUTE);
    await pause(300);
    assert.equal(toastsOf('Reminded').length, 4, 'three reminders, then no more');
    assert.equal(sounds(), start + 4, 'one sound at first and one per reminder');
    assert.doesNotMatch(
      readLog(home),
      new RegExp(`${quietOne.id} alerts again|${resolvedOne.id} alerts again`),
    );
    await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
  });

  it('a reminder while notifications are paused shows no toast', async () => {
    await nextStep();
    const { id } = await create({ title: 'Reminded while paused', type: 'permission_required' });
    await server.until(() => toastsOf('Reminded while paused').length === 1);
    await callJson(broker, 'PATCH', '/v1/settings', { pauseNotifications: true });
    await clock.advance(broker, 5 * MINUTE);
    await waitForLog(home, `notification ${id} alerts again: reminder 1 of 3`);
    await callJson(broker, 'PATCH', '/v1/settings', { pauseNotifications: false });
    // Toasts are shown in order: once a later one is up, a toast of the reminder would be too.
    await create({ title: 'After the pause' });
    await server.until(() => toastsOf('After the pause').length === 1);
    assert.equal(toastsOf('Reminded while paused').length, 1, 'only the first toast, none for the reminder');
    await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
  });

  it('a snooze pauses reminders; the due times survive kill -9 and a restart', async () => {
    await nextStep();
    const { id } = await create({ title: 'Paused', type: 'input_required' });
    await callJson(broker, 'POST', `/v1/notifications/${id}/snooze`, { minutes: 10 });
    await clock.advance(broker, 5 * MINUTE);
    await pause(300);
    assert.doesNotMatch(readLog(home), new RegExp(`${id} alerts again`), 'no reminder while snoozed');

    await broker.kill();
    await start();
    await clock.advance(broker, 5 * MINUTE);
    await waitForLog(home, `notification ${id} alerts again: its snooze ended`);
    await server.until(() => toastsOf('Paused').length >= 1);
    await clock.advance(broker, 5 * MINUTE);
    await waitForLog(home, `notification ${id} alerts again: reminder 1 of 3`);
    await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
  });

  it('quietHours are validated with a message that names the value', async () => {
    const answer = await callJson(broker, 'PATCH', '/v1/settings', {
      quietHours: { windows: [{ from: '22:00', to: '7:00' }] },
    });
    assert.deepEqual(
      [answer.status, answer.body!['error']],
      [400, 'quietHours.windows[0].to must be a local time HH:MM from 00:00 to 23:59, such as "22:00"'],
    );
    const days = await callJson(broker, 'PATCH', '/v1/settings', {
      quietHours: { windows: [{ from: '22:00', to: '07:00', days: ['weekdays'] }] },
    });
    assert.deepEqual(
      [days.status, days.body!['error']],
      [
        400,
        'quietHours.windows[0].days must be a non-empty list of sun, mon, tue, wed, thu, fri, sat (the days the window starts on)',
      ],
    );
    assert.equal((await callJson(broker, 'GET', '/v1/settings')).body!['quietHours'], null);
  });

  it('inside quiet hours: no toast or sound below the minimum priority, held sends and reminders until the window ends', async () => {
    const waiting = await enabledRouteTo(broker, receiver.url, { name: 'phone' });
    const urgent = await enabledRouteTo(broker, receiver.url, { name: 'pager', sendDuringQuietHours: true });
    assert.equal(
      (await callJson(broker, 'GET', `/v1/routes/${urgent.routeId}`)).body!['sendDuringQuietHours'],
      true,
    );
    const sendsOf = (id: string) =>
      receiver.received.filter((request) => JSON.stringify(request.body).includes(id)).length;
    const quietHours = { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' };
    const set = await callJson(broker, 'PATCH', '/v1/settings', { quietHours });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body!['quietHours'], {
      windows: [{ from: '22:00', to: '07:00', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }],
      minimumPriority: 'critical',
      timeZone: 'UTC',
    });

    await clock.set(broker, todayAt(23));
    const soundsBefore = sounds();
    const night = await create({ title: 'Night question', type: 'input_required', priority: 'high' });
    const listed = (await callJson(broker, 'GET', '/v1/notifications?status=active'))
      .body as unknown as Body[];
    assert.ok(
      listed.some((record) => record['id'] === night.id),
      'stored and listed',
    );
    // Only the route that sends during quiet hours has sent; the other waits for 07:00.
    await waitFor(() => receiver.received.length === 1, 'the pager send');
    await nextStep();
    const down = await create({ title: 'Server down', type: 'error', priority: 'critical' });
    await server.until(() => toastsOf('Server down').length === 1);
    await waitFor(() => sendsOf(down.id) === 2, 'the critical one sent by both routes at once');
    await players.waitForCalls(soundsBefore + 1);
    assert.equal(toastsOf('Night question').length, 0, 'no toast below critical');
    assert.equal(sounds(), soundsBefore + 1, 'only the critical sound');
    const outbox = (await callJson(broker, 'GET', '/v1/outbox')).body as unknown as Body[];
    const held = outbox.find(
      (item) => item['notificationId'] === night.id && item['routeId'] === waiting.routeId,
    )!;
    const tomorrowSeven = todayAt(7) + 24 * 60 * MINUTE;
    assert.deepEqual(
      [held['state'], held['nextAttemptAt']],
      ['pending', new Date(tomorrowSeven).toISOString().replace('Z', '+00:00')],
    );

    // The reminder due at 23:05 waits for the end of the window too, as does the send, across a restart.
    await clock.advance(broker, 5 * MINUTE);
    await pause(300);
    assert.doesNotMatch(readLog(home), new RegExp(`${night.id} alerts again`));
    await broker.kill();
    await start();
    await clock.set(broker, tomorrowSeven + 1000);
    await waitForLog(home, `notification ${night.id} alerts again: reminder 1 of 3`);
    await server.until(() => toastsOf('Night question').length === 1);
    await waitFor(() => sendsOf(night.id) === 2, 'the held send');
    await callJson(broker, 'PATCH', '/v1/settings', { quietHours: null });
  });
});
