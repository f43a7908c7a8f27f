import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NOT_ALLOWED_MESSAGE } from '../../src/domain/channel-answer.js';
import { readLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startDiscord, type DiscordMessage, type DiscordStandIn } from '../support/discord-api.js';
import { waitFor } from '../support/wait-for.js';
import {
  addChannel,
  ALLOW_DECISION,
  deliveries,
  listening,
  notification,
  permissionHook,
  raise,
} from './channel-support.js';

/**
 * Discord through the real notifyd and its outbox, against a stand-in that speaks the HTTP API and
 * the Gateway over a real WebSocket: the message, its edits, buttons that answer a waiting hook, who
 * may answer, stale answers, Reconnect and Resume, a restart and a 429's retry_after.
 */

const ALLOWED = '1180000000000000111';
const STRANGER = '1180000000000000999';
const CHANNEL = '1180000000000000777';

const lastVersion = (message: DiscordMessage) => message.history[message.history.length - 1]!;
const shownText = (message: DiscordMessage) => {
  const embed = lastVersion(message).embeds[0]!;
  return `${embed.title}\n${embed.description ?? ''}`;
};
const EPHEMERAL = 64;

describe('Discord: messages with buttons, answers over the Gateway', { timeout: 120_000 }, () => {
  let discord: DiscordStandIn;
  let broker: BrokerProcess;
  let providerId: string;

  before(async () => {
    discord = await startDiscord({ heartbeatMs: 300 });
    broker = await startBroker();
    providerId = await addChannel(broker, 'discord', {
      botToken: discord.botToken,
      channelId: CHANNEL,
      allowedUserIds: ALLOWED,
      apiUrl: discord.apiUrl,
    });
    await listening(broker, providerId);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await discord.close();
  });

  it('identifies on the Gateway, posts a notification, edits it when it changes and says how it ended', async () => {
    const connection = await discord.readyConnection();
    assert.equal(connection.opened?.op, 2);
    assert.equal(connection.opened?.d['token'], discord.botToken);
    const raised = await raise(broker, {
      title: 'Deploy to staging',
      message: '3 of 5 hosts',
      key: 'deploy',
    });
    const message = await discord.message('Deploy to staging');
    assert.equal(message.channel_id, CHANNEL);
    assert.deepEqual(message.components, []);
    const posted = discord.requests.find(
      (request) => request.method === 'POST' && request.path.endsWith('/messages'),
    );
    assert.equal(posted?.headers.authorization, `Bot ${discord.botToken}`);
    assert.deepEqual((JSON.parse(posted!.body) as { allowed_mentions: unknown }).allowed_mentions, {
      parse: [],
    });
    await raise(broker, { title: 'Deploy to staging', message: '5 of 5 hosts', key: 'deploy' });
    await waitFor(() => shownText(message).includes('5 of 5 hosts'), 'the edit');
    assert.equal(
      (await broker.request('PATCH', `/v1/notifications/${raised.id}`, { status: 'dismissed' })).status,
      200,
    );
    await waitFor(() => shownText(message).includes('**Dismissed**'), 'the message saying it was dismissed');
  });

  it("an allowed person's Allow answers the waiting PermissionRequest hook, and the message says so", async () => {
    const hook = permissionHook(broker, 'discord-allow');
    const message = await discord.message('Claude Code needs your permission');
    const buttons = discord.buttons(message);
    assert.equal(buttons.length, 3);
    assert.equal(message.components[0]!.components[0]!.label, 'Allow');
    const callback = await discord.press(message, buttons[0]!, ALLOWED);
    assert.deepEqual(callback.body, { type: 6 });
    const { code, stdout } = await hook.finished;
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), ALLOW_DECISION);
    await waitFor(() => shownText(message).includes('Answered “Allow” on Discord'), 'the answered line');
    assert.deepEqual(lastVersion(message).components, []);
  });

  it('refuses a press by someone not allowed: they are told privately and nothing changes', async () => {
    const raised = await raise(broker, {
      title: 'Merge the release branch?',
      actions: [
        { id: 'merge', label: 'Merge' },
        { id: 'wait', label: 'Wait' },
      ],
    });
    const message = await discord.message('Merge the release branch?');
    const callback = await discord.press(message, discord.buttons(message)[0]!, STRANGER);
    assert.deepEqual(callback.body, { type: 4, data: { content: NOT_ALLOWED_MESSAGE, flags: EPHEMERAL } });
    const now = await notification(broker, raised.id);
    assert.deepEqual([now.status, now.answer], ['active', undefined]);
    assert.equal(message.history.length, 1, 'the message was not edited');
  });

  it('refuses an answer to a revision the request left behind; the message shows what it asks now', async () => {
    const actions = [
      { id: 'run', label: 'Run it' },
      { id: 'skip', label: 'Skip' },
    ];
    const first = await raise(broker, {
      title: 'Run the migration?',
      message: 'on staging',
      key: 'migrate',
      actions,
    });
    const message = await discord.message('Run the migration?');
    const stale = discord.buttons(message)[0]!;
    const second = await raise(broker, {
      title: 'Run the migration?',
      message: 'on production',
      key: 'migrate',
      actions,
    });
    assert.equal(second.revision, first.revision + 1);
    const refusal = await discord.press(message, stale, ALLOWED);
    assert.equal(refusal.body.type, 4);
    assert.equal(refusal.body.data?.flags, EPHEMERAL);
    assert.match(refusal.body.data?.content ?? '', /revision 1 answered, now revision 2/);
    assert.equal((await notification(broker, first.id)).status, 'active');
    await waitFor(() => shownText(message).includes('on production'), 'the corrected message');
    const fresh = discord.buttons(message)[1]!;
    assert.ok(fresh.endsWith(':2:1'), fresh);
    assert.deepEqual((await discord.press(message, fresh, ALLOWED)).body, { type: 6 });
    assert.equal((await notification(broker, first.id)).answer?.action, 'skip');
  });

  it('heartbeats with the last sequence number, and resumes the session when the Gateway asks to reconnect', async () => {
    const old = await discord.readyConnection();
    await waitFor(
      () => old.socket.received.some((text) => (JSON.parse(text) as { op: number; d: unknown }).op === 1),
      'a heartbeat',
    );
    const heartbeat = JSON.parse(
      old.socket.received.filter((text) => (JSON.parse(text) as { op: number }).op === 1).pop()!,
    ) as { d: number };
    assert.ok(heartbeat.d >= 1, `the heartbeat carries the sequence number, got ${heartbeat.d}`);
    await discord.askReconnect();
    await old.socket.closed;
    const resumed = await waitFor(
      () => discord.connections.find((connection) => connection !== old && connection.opened?.op === 6),
      'the resume',
    );
    assert.equal(resumed.socket.url.split('?')[0], '/resume');
    assert.equal(resumed.opened?.d['session_id'], old.sessionId);
    assert.equal(typeof resumed.opened?.d['seq'], 'number');
    const raised = await raise(broker, {
      title: 'Rotate the keys?',
      actions: [{ id: 'rotate', label: 'Rotate' }],
    });
    const message = await discord.message('Rotate the keys?');
    assert.deepEqual((await discord.press(message, discord.buttons(message)[0]!, ALLOWED)).body, { type: 6 });
    assert.equal((await notification(broker, raised.id)).status, 'resolved');
  });

  it('keeps answering across a broker restart while the Gateway connection is open', async () => {
    const raised = await raise(broker, {
      title: 'Ship the hotfix?',
      actions: [{ id: 'ship', label: 'Ship' }],
    });
    const message = await discord.message('Ship the hotfix?');
    const old = await discord.readyConnection();
    await broker.stop();
    await old.socket.closed;
    broker = await startBroker({ home: broker.home, port: broker.port });
    await listening(broker, providerId);
    assert.notEqual(await discord.readyConnection(), old);
    await discord.press(message, discord.buttons(message)[0]!, ALLOWED);
    assert.equal((await notification(broker, raised.id)).answer?.action, 'ship');
    await waitFor(
      () => shownText(message).includes('Answered “Ship” on Discord'),
      'the edit after the restart',
    );
  });

  it("waits as long as a 429's retry_after says", async () => {
    discord.failNext(`POST /channels/${CHANNEL}/messages`, {
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 120.5, global: false },
    });
    const raised = await raise(broker, { title: 'Rate limited' });
    const item = await waitFor(async () => {
      const [send] = await deliveries(broker, raised.id);
      return send?.lastStatus === 429 && send;
    }, 'the refused send');
    assert.equal(item.state, 'pending');
    const waitMs = Date.parse(item.nextAttemptAt!) - Date.parse(item.updatedAt);
    assert.ok(waitMs >= 120_000 && waitMs <= 121_600, `retried after ${waitMs} ms`);
  });

  it('never writes the token to the log or the API', async () => {
    const shown = readLog(broker.home) + (await (await broker.request('GET', '/v1/providers')).text());
    assert.ok(!shown.includes(discord.botToken));
  });
});
