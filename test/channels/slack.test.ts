import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NOT_ALLOWED_MESSAGE } from '../../src/domain/channel-answer.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startSlack, type SlackPost, type SlackStandIn } from '../support/slack-api.js';
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
 * Slack through the real notifyd and its outbox, against a stand-in that speaks the Web API and Socket
 * Mode over a real WebSocket: the message, its edits, buttons that answer a waiting hook, who may
 * answer, stale answers, reconnects, a restart and rate limits.
 */

const ALLOWED = 'U0ALLOWED1';
const STRANGER = 'U0STRANGER';
const CHANNEL = 'C0AGENTS01';

const versionText = (post: SlackPost) => post.history.map((version) => version.text);
const lastText = (post: SlackPost) => post.history[post.history.length - 1]!.text;

describe('Slack: messages with buttons, answers over Socket Mode', { timeout: 120_000 }, () => {
  let slack: SlackStandIn;
  let broker: BrokerProcess;
  let providerId: string;

  before(async () => {
    slack = await startSlack();
    broker = await startBroker();
    providerId = await addChannel(broker, 'slack', {
      botToken: slack.botToken,
      appToken: slack.appToken,
      channel: CHANNEL,
      allowedUserIds: `${ALLOWED}, U0OTHER123`,
      apiUrl: slack.apiUrl,
    });
    await listening(broker, providerId);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await slack.close();
  });

  it('posts a notification, edits it when it changes and says how it ended', async () => {
    const raised = await raise(broker, {
      title: 'Deploy to staging',
      message: '3 of 5 hosts',
      key: 'deploy',
    });
    const post = await slack.message('Deploy to staging');
    assert.equal(post.channel, CHANNEL);
    assert.deepEqual(
      post.blocks.map((block) => block.type),
      ['header', 'section', 'context'],
    );
    assert.equal(post.blocks[0]!.text!.text, 'Deploy to staging');
    const posted = slack.calls.find((call) => call.method === 'chat.postMessage');
    assert.equal(posted?.headers.authorization, `Bearer ${slack.botToken}`);
    await raise(broker, { title: 'Deploy to staging', message: '5 of 5 hosts', key: 'deploy' });
    await waitFor(() => versionText(post).some((text) => text.includes('5 of 5 hosts')), 'the edit');
    assert.equal(
      (await broker.request('PATCH', `/v1/notifications/${raised.id}`, { status: 'resolved' })).status,
      200,
    );
    await waitFor(() => lastText(post).endsWith('Resolved'), 'the message saying it was resolved');
    assert.equal(slack.posts.filter((candidate) => candidate.text.includes('Deploy to staging')).length, 1);
  });

  it("an allowed person's Allow answers the waiting PermissionRequest hook, and the message says so", async () => {
    const hook = permissionHook(broker, 'slack-allow');
    const post = await slack.message('Claude Code needs your permission');
    const buttons = slack.buttons(post);
    assert.equal(buttons.length, 3);
    await slack.press(post, buttons[0]!, ALLOWED);
    const { code, stdout } = await hook.finished;
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), ALLOW_DECISION);
    await waitFor(() => lastText(post).endsWith('Answered “Allow” on Slack'), 'the answered line');
    assert.deepEqual(slack.buttons({ ...post, blocks: post.history[post.history.length - 1]!.blocks }), []);
  });

  it('refuses a press by someone not allowed: they are told privately and nothing changes', async () => {
    const raised = await raise(broker, {
      title: 'Merge the release branch?',
      actions: [
        { id: 'merge', label: 'Merge' },
        { id: 'wait', label: 'Wait' },
      ],
    });
    const post = await slack.message('Merge the release branch?');
    await slack.press(post, slack.buttons(post)[0]!, STRANGER);
    await waitFor(
      () => slack.ephemerals.find((sent) => sent.user === STRANGER && sent.text === NOT_ALLOWED_MESSAGE),
      'the private "not allowed"',
    );
    const after = await notification(broker, raised.id);
    assert.deepEqual([after.status, after.answer], ['active', undefined]);
    assert.equal(post.history.length, 1, 'the message was not edited');
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
    const post = await slack.message('Run the migration?');
    const stale = slack.buttons(post)[0]!;
    const second = await raise(broker, {
      title: 'Run the migration?',
      message: 'on production',
      key: 'migrate',
      actions,
    });
    assert.equal(second.id, first.id);
    assert.equal(second.revision, first.revision + 1);
    await slack.press(post, stale, ALLOWED);
    const refusal = await waitFor(
      () =>
        slack.ephemerals.find(
          (sent) => sent.user === ALLOWED && sent.text.includes('changed after it was shown'),
        ),
      'the private refusal of the stale answer',
    );
    assert.match(refusal.text, /revision 1 answered, now revision 2/);
    assert.equal((await notification(broker, first.id)).status, 'active');
    await waitFor(() => lastText(post).includes('on production'), 'the corrected message');
    const fresh = slack.buttons(post)[1]!;
    assert.ok(fresh.endsWith(':2:1'), fresh);
    await slack.press(post, fresh, ALLOWED);
    await waitFor(
      async () => (await notification(broker, first.id)).answer?.action === 'skip',
      'the fresh answer',
    );
    assert.equal((await notification(broker, first.id)).answer?.surface, 'slack');
  });

  it('opens a new connection when Slack asks with disconnect, and answers keep working', async () => {
    const old = await slack.openSocket();
    const count = slack.sockets.length;
    await slack.disconnect('refresh_requested');
    assert.equal(await old.closed, 1000);
    await waitFor(
      () => slack.sockets.length === count + 1 && slack.sockets[count]!.isOpen(),
      'a new connection',
    );
    const raised = await raise(broker, {
      title: 'Rotate the keys?',
      actions: [{ id: 'rotate', label: 'Rotate' }],
    });
    const post = await slack.message('Rotate the keys?');
    await slack.press(post, slack.buttons(post)[0]!, ALLOWED);
    await waitFor(async () => (await notification(broker, raised.id)).status === 'resolved', 'the answer');
  });

  it('reconnects after its back-off when Slack says Socket Mode was turned off (link_disabled)', async () => {
    const count = slack.sockets.length;
    await slack.disconnect('link_disabled');
    await waitForLog(broker.home, 'listening failed (socket_mode_disabled); retrying in');
    await waitFor(
      () => slack.sockets.length === count + 1 && slack.sockets[count]!.isOpen(),
      'a new connection',
    );
    await listening(broker, providerId);
  });

  it('keeps answering across a broker restart while the socket is open', async () => {
    const raised = await raise(broker, {
      title: 'Ship the hotfix?',
      actions: [{ id: 'ship', label: 'Ship' }],
    });
    const post = await slack.message('Ship the hotfix?');
    const old = await slack.openSocket();
    await broker.stop();
    await old.closed;
    broker = await startBroker({ home: broker.home, port: broker.port });
    await waitFor(() => slack.sockets[slack.sockets.length - 1] !== old, 'the restarted broker connecting');
    await listening(broker, providerId);
    await slack.press(post, slack.buttons(post)[0]!, ALLOWED);
    await waitFor(
      async () => (await notification(broker, raised.id)).answer?.action === 'ship',
      'the answer',
    );
    await waitFor(() => lastText(post).endsWith('Answered “Ship” on Slack'), 'the edit after the restart');
  });

  it('waits as long as a 429 asks, for a message and for the socket', async () => {
    slack.failNext('chat.postMessage', { status: 429, headers: { 'retry-after': '120' } });
    const raised = await raise(broker, { title: 'Rate limited' });
    const item = await waitFor(async () => {
      const [send] = await deliveries(broker, raised.id);
      return send?.lastStatus === 429 && send;
    }, 'the refused send');
    assert.equal(item.state, 'pending');
    const waitMs = Date.parse(item.nextAttemptAt!) - Date.parse(item.updatedAt);
    assert.ok(waitMs >= 119_000 && waitMs <= 121_000, `retried after ${waitMs} ms`);

    slack.failNext('apps.connections.open', { status: 429, headers: { 'retry-after': '30' } });
    await slack.disconnect('refresh_requested');
    await waitForLog(broker.home, 'listening failed (http_429); retrying in 30000 ms');
  });

  it('never writes the tokens to the log or the API', async () => {
    const shown = readLog(broker.home) + (await (await broker.request('GET', '/v1/providers')).text());
    assert.ok(!shown.includes(slack.botToken) && !shown.includes(slack.appToken));
  });
});
