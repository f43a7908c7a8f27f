import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NOT_ALLOWED_MESSAGE } from '../../src/domain/channel-answer.js';
import { readLog } from '../support/broker-log.js';
import { useBroker } from '../support/broker-process.js';
import { startMatrixApi, type MatrixApi } from '../support/matrix-api.js';
import { callJson } from '../support/outbox-broker.js';
import { waitFor } from '../support/wait-for.js';
import { ALLOW_DECISION, ask, channelProvider, notificationOf, permissionHook } from './support.js';

/**
 * Matrix through the real notifyd and its outbox, against a homeserver stand-in with real /sync long
 * polling: @alice is allowed, @mallory is not.
 */
const ALICE = '@alice:example.test';
const MALLORY = '@mallory:example.test';

interface Offer {
  notification: string;
  revision: number;
  actions: { index: number; id: string; label: string; reaction?: string }[];
}

function offerOf(content: Record<string, unknown>): Offer | undefined {
  return content['org.notify.answer'] as Offer | undefined;
}

describe('matrix: requests in a room, answered by replies and reactions', { timeout: 120_000 }, () => {
  const broker = useBroker();
  let api: MatrixApi;

  before(async () => {
    api = await startMatrixApi();
    await channelProvider(broker, 'matrix', {
      homeserverUrl: api.url,
      accessToken: api.accessToken,
      roomId: api.roomId,
      allowedUserIds: ALICE,
    });
    await api.pollOpen();
  });
  after(() => api.close());

  it('posts a request with an HTML body and what answers it, and edits it when it changes and ends', async () => {
    const first = await ask(broker, 'Deploy <prod>?', 'kubectl apply -f prod.yaml', 'deploy-1');
    const message = await api.nextMessage();
    assert.match(String(message.content['body']), /^Deploy <prod>\?\n\nkubectl apply -f prod\.yaml/);
    assert.equal(message.content['format'], 'org.matrix.custom.html');
    assert.match(String(message.content['formatted_body']), /^<strong>Deploy &#60;prod&#62;\?<\/strong>/);
    assert.match(String(message.content['body']), /Reply with “Allow” or react ✅, “Deny” or react ❌$/);
    assert.deepEqual(offerOf(message.content), {
      notification: first.id,
      revision: 1,
      actions: [
        { index: 0, id: 'allow', label: 'Allow', reaction: '✅' },
        { index: 1, id: 'deny', label: 'Deny', reaction: '❌' },
      ],
    });

    await ask(broker, 'Deploy <prod>?', 'kubectl apply -f prod-v2.yaml', 'deploy-1');
    await waitFor(() => String(message.content['body']).includes('prod-v2.yaml'), 'the edit');
    assert.equal(offerOf(message.content)?.revision, 2);
    const edit = api.timeline.at(-1)!;
    assert.deepEqual(edit.content['m.relates_to'], { rel_type: 'm.replace', event_id: message.event_id });

    assert.equal(
      (await callJson(broker, 'PATCH', `/v1/notifications/${first.id}`, { status: 'dismissed' })).status,
      200,
    );
    await waitFor(
      () => String(message.content['body']).endsWith('\n\nDismissed'),
      'the edit saying it ended',
    );
    assert.equal(offerOf(message.content), undefined, 'nothing answers it once it ended');
  });

  it('a ✅ from an allowed user answers the waiting PermissionRequest hook', async () => {
    const hook = permissionHook(broker, 'matrix-allow');
    const message = await api.nextMessage();
    const reaction = api.react(message.event_id, '✅', ALICE);
    assert.equal(await api.noticeFor(reaction), 'Answered “Allow” on Matrix');
    const done = await hook.finished;
    assert.equal(done.code, 0);
    assert.deepEqual(JSON.parse(done.stdout), ALLOW_DECISION);
    const answered = await notificationOf(broker, offerOf(message.history[0]!)!.notification);
    assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['allow', 'matrix']);
    await waitFor(
      () => String(message.content['body']).endsWith('\n\nAnswered “Allow” on Matrix'),
      'the message saying how it was answered',
    );
  });

  it('refuses someone not allowed and changes nothing; a reply naming an action answers', async () => {
    const request = await ask(broker, 'Push to main?', 'git push origin main');
    const message = await api.nextMessage();
    const foreign = api.react(message.event_id, '✅', MALLORY);
    assert.equal(await api.noticeFor(foreign), NOT_ALLOWED_MESSAGE);
    assert.equal((await notificationOf(broker, request.id)).status, 'active');
    assert.equal(message.history.length, 1, 'the message is not edited');

    const reply = api.reply(message.event_id, '> <@notify-bot:example.test> Push to main?\n\ndeny', ALICE);
    assert.equal(await api.noticeFor(reply), 'Answered “Deny” on Matrix');
    assert.equal((await notificationOf(broker, request.id)).answer?.action, 'deny');
  });

  it('refuses a reaction to what the request showed before it changed, then the message shows what it asks now', async () => {
    const request = await ask(broker, 'Delete the branch?', 'git branch -D old', 'stale-1');
    const message = await api.nextMessage();
    // The homeserver is slow to take the edit to revision 2: the room still shows revision 1.
    const held = api.holdNextSend();
    await ask(broker, 'Delete the branch?', 'git push origin --delete main', 'stale-1');
    const release = await held;
    const stale = api.react(message.event_id, '✅', ALICE);
    assert.match(
      await api.noticeFor(stale),
      /this request changed after it was shown \(revision 1 answered, now revision 2\)/,
    );
    assert.equal(
      (await notificationOf(broker, request.id)).status,
      'active',
      'the stale ✅ approved nothing',
    );
    release();
    await waitFor(() => offerOf(message.content)?.revision === 2, 'the message showing revision 2');

    const fresh = api.react(message.event_id, '❌', ALICE);
    assert.equal(await api.noticeFor(fresh), 'Answered “Deny” on Matrix');
    assert.equal((await notificationOf(broker, request.id)).answer?.action, 'deny');
    await waitFor(
      () => String(message.content['body']).endsWith('\n\nAnswered “Deny” on Matrix'),
      'the message saying how it was answered',
    );
  });

  it('waits as long as a 429 says, when sending and when syncing', async () => {
    api.failNext('send', 429, 1, 3000);
    await ask(broker, 'Rate limited?', 'try again later');
    const message = await api.nextMessage();
    const limited = api.calls.find((call) => call.failedWith === 429)!;
    const again = await waitFor(
      () => api.calls.find((call) => call !== limited && call.path === limited.path),
      'the send after the 429',
    );
    assert.ok(again.at - limited.at >= 2900, `sent again after ${again.at - limited.at} ms`);

    await api.pollOpen();
    api.failNext('sync', 429, 1, 3000);
    const reaction = api.react(message.event_id, '❌', ALICE);
    assert.equal(await api.noticeFor(reaction), 'Answered “Deny” on Matrix');
    const wait = await waitFor(() => {
      const syncs = api.calls.filter((call) => call.path.endsWith('/sync'));
      const index = syncs.findIndex((call) => call.failedWith === 429);
      const next = syncs[index + 1];
      return index >= 0 && next !== undefined && next.at - syncs[index]!.at;
    }, 'the sync after the 429');
    assert.ok(wait >= 2900, `synced again after ${wait} ms`);
  });

  it('shows a refused token as refused, and never writes a token to the log', async () => {
    const wrong = 'syt_d3Jvbmc_WRONGtokenWRONG_9z8y7x';
    const refusedId = await channelProvider(
      broker,
      'matrix',
      { homeserverUrl: api.url, accessToken: wrong, roomId: api.roomId },
      'matrix with a revoked token',
    );
    const view = await waitFor(async () => {
      const found = (await callJson(broker, 'GET', `/v1/providers/${refusedId}`)).body!;
      return found['listening']?.state === 'refused' && found;
    }, 'the refused listener');
    assert.equal(view['listening'].reason, 'http_401');
    const log = readLog(broker.home);
    const providers = JSON.stringify((await callJson(broker, 'GET', '/v1/providers')).body);
    for (const token of [api.accessToken, wrong]) {
      assert.ok(!log.includes(token), 'an access token is in the broker log');
      assert.ok(!providers.includes(token), 'an access token is in the providers API');
    }
  });
});
