import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fixtureFile, HOOK } from '../hooks/support.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { retained, startMosquitto, watch, type Mosquitto, type Watcher } from '../support/mosquitto.js';
import { waitFor } from '../support/wait-for.js';
import { listening, mqttProvider, notification, raise } from './mqtt-support.js';

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

interface State {
  id: string;
  title: string;
  message?: string;
  status: string;
  revision: number;
  actions?: { id: string; label: string }[];
}

interface Button {
  name: string;
  command_topic: string;
  payload_press: string;
}

const parse = <T>(payload: string) => JSON.parse(payload) as T;

/**
 * MQTT through the real notifyd and a real mosquitto: each notification's state retained under
 * notify/notifications/<id>, the waiting count and Home Assistant discovery documents, answers read
 * from notify/notifications/<id>/answer (allowed users, revisions, restarts on both sides).
 */
describe(
  'MQTT: states, Home Assistant discovery and answers on a real mosquitto',
  { timeout: 120_000 },
  () => {
    let mosquitto: Mosquitto;
    let broker: BrokerProcess;
    let providerId: string;
    let watcher: Watcher;

    before(async () => {
      mosquitto = await startMosquitto();
      broker = await startBroker();
      providerId = await mqttProvider(broker, { url: mosquitto.url, allowedUserIds: 'ada, homeassistant' });
      await listening(broker, providerId, 'listening');
      watcher = await watch(mosquitto, ['notify/#', 'homeassistant/#']);
    });
    after(async () => {
      await watcher.close();
      await broker.stop();
      broker.home.cleanup();
      await mosquitto.cleanup();
    });

    const stateOf = (id: string, check: (state: State) => boolean, what: string) =>
      watcher
        .next(`notify/notifications/${id}`, (payload) => payload !== '' && check(parse<State>(payload)), what)
        .then(parse<State>);

    const buttonTopic = (id: string, index: number) => `homeassistant/button/notify/${id}_${index}/config`;

    it('publishes the state retained on create and update, clears it at the end, with the waiting count and buttons', async () => {
      const sensor = parse<{ state_topic: string }>(
        await watcher.next('homeassistant/sensor/notify/waiting/config', () => true, 'the sensor discovery'),
      );
      assert.equal(sensor.state_topic, 'notify/waiting');

      const created = await raise(broker, { title: 'Migrate?', key: 'mqtt-lifecycle' });
      const first = await stateOf(created.id, (state) => state.revision === 1, 'the first state');
      assert.deepEqual(
        [first.title, first.status, first.actions?.map((action) => action.id)],
        ['Migrate?', 'active', ['allow', 'deny']],
      );
      const button = parse<Button>(
        await watcher.next(buttonTopic(created.id, 0), (p) => p !== '', 'a button'),
      );
      assert.equal(button.name, 'Migrate?: Allow');
      assert.equal(button.command_topic, `notify/notifications/${created.id}/answer`);
      assert.deepEqual(parse(button.payload_press), { action: 'allow', revision: 1, user: 'homeassistant' });
      await watcher.next('notify/waiting', (count) => count === '1', 'one waiting');
      // A new subscriber (Home Assistant starting later) gets the state the broker retained.
      assert.equal(
        parse<State>((await retained(mosquitto, `notify/notifications/${created.id}`))!).revision,
        1,
      );

      await raise(broker, { title: 'Migrate?', key: 'mqtt-lifecycle', message: 'Run migration 42?' });
      const second = await stateOf(created.id, (state) => state.revision === 2, 'the updated state');
      assert.equal(second.message, 'Run migration 42?');
      await watcher.next(
        buttonTopic(created.id, 1),
        (p) => p !== '' && parse<{ revision: number }>(parse<Button>(p).payload_press).revision === 2,
        'the button of revision 2',
      );

      const resolved = await broker.request('PATCH', `/v1/notifications/${created.id}`, {
        status: 'resolved',
      });
      assert.equal(resolved.status, 200);
      await watcher.next(`notify/notifications/${created.id}`, (p) => p === '', 'the state cleared');
      await watcher.next(buttonTopic(created.id, 0), (p) => p === '', 'the button removed');
      await watcher.next('notify/waiting', (count) => count === '0', 'none waiting');
      assert.equal(await retained(mosquitto, `notify/notifications/${created.id}`), undefined);
    });

    it("applies an allowed user's answer to a waiting PermissionRequest hook and refuses a foreign user's", async () => {
      const hook = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=60'], {
        env: broker.home.env,
        stdio: 'pipe',
      });
      let hookOut = '';
      hook.stdout.on('data', (chunk: Buffer) => (hookOut += chunk.toString()));
      const hookDone = new Promise<number | null>((resolve) => hook.once('close', resolve));
      hook.stdin.end(JSON.stringify({ ...CLAUDE, session_id: 'mqtt-hook' }));
      const state = await waitFor(
        () =>
          [...watcher.last.entries()]
            .filter(([topic, payload]) => /^notify\/notifications\/[^/]+$/.test(topic) && payload !== '')
            .map(([, payload]) => parse<State>(payload))
            .find((candidate) => candidate.title === 'Claude Code needs your permission'),
        'the request published',
      );
      const answerTopic = `notify/notifications/${state.id}/answer`;

      await watcher.client.publishAsync(
        answerTopic,
        JSON.stringify({ action: 'allow', revision: state.revision, user: 'mallory' }),
        { qos: 1 },
      );
      const refused = await watcher.next(`${answerTopic}/outcome`, () => true, 'the outcome for mallory');
      assert.deepEqual(parse(refused), {
        kind: 'not_allowed',
        message: 'You are not allowed to answer this.',
      });
      assert.equal((await notification(broker, state.id)).status, 'active');

      await watcher.client.publishAsync(
        answerTopic,
        JSON.stringify({ action: 'allow', revision: state.revision, user: 'ada' }),
        { qos: 1 },
      );
      assert.equal(await hookDone, 0);
      assert.deepEqual(JSON.parse(hookOut), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
      });
      const answered = await notification(broker, state.id);
      assert.deepEqual(
        [answered.status, answered.answer?.action, answered.answer?.surface],
        ['resolved', 'allow', 'mqtt'],
      );
      assert.deepEqual(
        parse(await watcher.next(`${answerTopic}/outcome`, (p) => p.includes('applied'), 'applied')),
        {
          kind: 'applied',
          action: 'allow',
        },
      );
    });

    it('refuses an answer to a revision the request left behind, and says so', async () => {
      const created = await raise(broker, { title: 'Drop the table?', key: 'mqtt-stale' });
      await raise(broker, { title: 'Drop the table?', key: 'mqtt-stale', message: 'Drop the users table?' });
      await stateOf(created.id, (state) => state.revision === 2, 'revision 2 published');
      const answerTopic = `notify/notifications/${created.id}/answer`;
      await watcher.client.publishAsync(
        answerTopic,
        JSON.stringify({ action: 'allow', revision: 1, user: 'ada' }),
        {
          qos: 1,
        },
      );
      const outcome = parse<{ kind: string; message: string }>(
        await watcher.next(`${answerTopic}/outcome`, () => true, 'the stale outcome'),
      );
      assert.equal(outcome.kind, 'stale');
      assert.match(outcome.message, /revision 1 answered, now revision 2/);
      assert.equal((await notification(broker, created.id)).status, 'active');
      // What the person looks at says revision 2: the retained state the answer should have named.
      assert.equal(
        parse<State>((await retained(mosquitto, `notify/notifications/${created.id}`))!).revision,
        2,
      );
    });

    it('reads an answer published while notifyd was stopped once it is back (persistent session)', async () => {
      const created = await raise(broker, { title: 'Ship it?', key: 'mqtt-restart' });
      await stateOf(created.id, () => true, 'the request published');
      const { home, port } = broker;
      await broker.stop();
      await watcher.client.publishAsync(
        `notify/notifications/${created.id}/answer`,
        JSON.stringify({ action: 'deny', revision: 1, user: 'ada' }),
        { qos: 1 },
      );
      broker = await startBroker({ home, port });
      const answered = await waitFor(async () => {
        const current = await notification(broker, created.id);
        return current.status === 'resolved' ? current : undefined;
      }, 'the answer applied after the restart');
      assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['deny', 'mqtt']);
    });

    it('reconnects after mosquitto restarts, and publishes and answers again', async () => {
      await mosquitto.stop();
      await listening(broker, providerId, 'retrying');
      await mosquitto.start();
      await watcher.close();
      watcher = await watch(mosquitto, ['notify/#', 'homeassistant/#']);
      await listening(broker, providerId, 'listening', 30_000);
      const created = await raise(broker, { title: 'After the restart?', key: 'mqtt-reconnect' });
      await stateOf(created.id, () => true, 'the state published after the restart');
      await watcher.client.publishAsync(
        `notify/notifications/${created.id}/answer`,
        JSON.stringify({ action: 'allow', revision: 1, user: 'homeassistant' }),
        { qos: 1 },
      );
      await waitFor(
        async () => (await notification(broker, created.id)).answer?.surface === 'mqtt',
        'the answer after the restart',
      );
    });
  },
);
