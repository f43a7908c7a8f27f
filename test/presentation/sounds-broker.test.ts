import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILTIN_SOUNDS_DIR } from '../../src/presentation/sound-library.js';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { createStandInPlayers, type StandInPlayers } from '../support/stand-in-player.js';

const tone = (name: string) => join(BUILTIN_SOUNDS_DIR, `${name}.wav`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A broker whose PATH holds only stand-in players, in a (stand-in) desktop session. */
async function brokerWithPlayers(players: StandInPlayers, config: Record<string, unknown> = {}) {
  const home = createTempHome();
  home.env['PATH'] = players.folder;
  home.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/notify-test-bus';
  return startBroker({ home, config });
}

async function create(broker: BrokerProcess, body: Record<string, unknown>) {
  const response = await broker.request('POST', '/v1/notifications', { title: 'T', message: 'M', ...body });
  assert.ok(response.status === 201, `create answered ${response.status}`);
  return (await response.json()) as { id: string };
}

describe('sounds played by the broker', () => {
  let players: StandInPlayers;
  let broker: BrokerProcess;

  before(async () => {
    players = createStandInPlayers(['paplay', 'aplay']);
    broker = await brokerWithPlayers(players, { types: { deploy: { sound: 'knock' } } });
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    players.cleanup();
  });

  it('plays one sound for a burst, none for a status change, and the type sound for an in-place update', async () => {
    const first = await create(broker, { key: 'build', priority: 'normal' });
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(broker, { title: `burst ${i}` })),
    );
    assert.deepEqual(await players.waitForCalls(1), [['paplay', tone('chime')]]);

    await pause(2100);
    const dismissed = await broker.request('POST', `/v1/notifications/${burst[0]!.id}/dismiss`);
    assert.equal(dismissed.status, 200);
    await pause(300);
    assert.equal(players.calls().length, 1, 'a status change plays no sound');
    const updated = await create(broker, {
      key: 'build',
      type: 'deploy',
      title: 'in place',
      priority: 'high',
    });
    assert.equal(updated.id, first.id);
    const calls = await players.waitForCalls(2);
    await pause(300);
    assert.deepEqual(players.calls(), [calls[0], ['paplay', tone('knock')]]);
  });

  it('plays a critical sound right after a chime: the burst limit swallows only equal or lower ones', async () => {
    await pause(2100);
    const before = players.calls().length;
    await create(broker, { priority: 'normal', title: 'chime first' });
    await create(broker, { priority: 'normal', title: 'swallowed' });
    await create(broker, { priority: 'critical', title: 'alert anyway' });
    await create(broker, { priority: 'high', title: 'swallowed too' });
    await players.waitForCalls(before + 2);
    await pause(300);
    assert.deepEqual(players.calls().slice(before), [
      ['paplay', tone('chime')],
      ['paplay', tone('alert')],
    ]);
  });

  it('sounds an in-place update only when its priority rises or its type turns to one that needs a person', async () => {
    const before = players.calls().length;
    const step = async (body: Record<string, unknown>) => {
      await pause(2100);
      await create(broker, { key: 'progress', ...body });
    };
    await step({ type: 'info', priority: 'normal', title: 'started' });
    await step({ type: 'info', priority: 'normal', title: '10%' });
    await step({ type: 'warning', priority: 'normal', title: 'a warning is news, not a request' });
    await step({ type: 'permission_required', priority: 'normal', title: 'may I?' });
    await step({ type: 'permission_required', priority: 'high', title: 'may I, please?' });
    await step({ type: 'permission_required', priority: 'normal', title: 'calmer again' });
    await players.waitForCalls(before + 3);
    await pause(300);
    assert.deepEqual(players.calls().slice(before), [
      ['paplay', tone('chime')],
      ['paplay', tone('chime')],
      ['paplay', tone('ping')],
    ]);
  });
});

describe('sounds the settings silence', () => {
  it('plays nothing while notifications are paused, not even for a critical one', async () => {
    const players = createStandInPlayers(['aplay']);
    const broker = await brokerWithPlayers(players, { pauseNotifications: true });
    try {
      await create(broker, { priority: 'critical' });
      await pause(300);
      assert.deepEqual(players.calls(), []);
    } finally {
      await broker.stop();
      broker.home.cleanup();
      players.cleanup();
    }
  });

  it('logs one WARN line and stays silent without a desktop session', async () => {
    const players = createStandInPlayers(['aplay']);
    const home = createTempHome();
    home.env['PATH'] = players.folder;
    const broker = await startBroker({ home });
    try {
      await create(broker, { priority: 'critical' });
      await pause(300);
      assert.deepEqual(players.calls(), []);
      const log = readdirSync(home.logDir)
        .map((file) => readFileSync(join(home.logDir, file), 'utf8'))
        .join('');
      // One line for toasts and sounds together, as conventions.md "Desktop" says.
      assert.equal(log.match(/\[WARN\] (toasts and )?sounds are off/g)?.length, 1);
      assert.match(log, /\[WARN\] toasts and sounds are off: /);
    } finally {
      await broker.stop();
      home.cleanup();
      players.cleanup();
    }
  });
});

describe('a sound player that cannot play (no sound server)', () => {
  let players: StandInPlayers;
  let broker: BrokerProcess;

  before(async () => {
    players = createStandInPlayers(['paplay'], 1);
    broker = await brokerWithPlayers(players);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    players.cleanup();
  });

  const failures = () =>
    readdirSync(broker.home.logDir)
      .map((file) => readFileSync(join(broker.home.logDir, file), 'utf8'))
      .join('')
      .split('\n')
      .filter((line) => line.includes('[WARN] sounds are not playing'));

  it('answers a preview with 503 naming the exit status, not with "Playing"', async () => {
    const response = await broker.request('POST', '/v1/sounds/chime/preview');
    assert.equal(response.status, 503);
    assert.deepEqual(await response.json(), {
      error:
        'paplay could not play "chime": it exited with status 1; is a sound server (PipeWire or PulseAudio) running in this session?',
    });
  });

  it('logs the failure once, however many sounds fail', async () => {
    await create(broker, { priority: 'high' });
    await pause(2100);
    await create(broker, { priority: 'high' });
    await players.waitForCalls(3);
    await pause(300);
    assert.equal(failures().length, 1, failures().join('\n'));
    assert.match(
      failures()[0]!,
      /\[WARN\] sounds are not playing: paplay exited with status 1 \(.*chime\.wav\); is a sound server \(PipeWire or PulseAudio\) running in this session\?$/,
    );
  });
});
