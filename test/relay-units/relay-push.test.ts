/**
 * Which of a sender's and a person's changes buzz the person's phones, and the answer a push carries:
 * a new, reopened or changed request and its end do; a replay, an older update, the same content again,
 * a request delivered already ended or ended twice do not. The relay's server and its push sender run
 * in this process (in-process-relay.ts), sending to the push service stand-in on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PushService, type PushSubscriptionJson, type ReceivedPush } from '../support/push-service.js';
import { api, deliver, delivered, pairSender, setUpOperator, type WebSession } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor } from '../support/wait-for.js';
import { addDevice } from '../relay/push-support.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

let relay: InProcessRelay;
let web: WebSession;
let service: PushService;
let credential: string;
let phone: PushSubscriptionJson;

before(async () => {
  service = await PushService.start();
  relay = await startInProcessRelay({ pushContact: 'mailto:ops@example.org' });
  web = await setUpOperator(relay);
  credential = (await pairSender(relay, web, 'push-box')).credential;
  phone = (await addDevice(web, service, 'Phone')).subscription;
});
after(async () => {
  await relay.cleanup();
  await service.stop();
});

let ids = 0;
const nextId = (): string => `n-push-core-${++ids}`;
let later = Date.parse('2026-11-25T18:00:00.000Z');
const nextTime = (): string => new Date((later += 1000)).toISOString();

const pushes = (id: string): ReceivedPush[] =>
  service.deliveredTo(phone).filter((push) => push.payload['id'] === id);

async function pushesOf(id: string, count: number, what: string): Promise<ReceivedPush[]> {
  return waitFor(() => pushes(id).length >= count && pushes(id), what);
}

/** A push for another notification, sent after whatever an earlier step queued: the queue is in order. */
async function marker(): Promise<void> {
  const id = nextId();
  assert.equal((await deliver(relay, credential, id, delivered({ updated_at: nextTime() }))).status, 201);
  await pushesOf(id, 1, 'the marker push');
}

const shape = (push: ReceivedPush): unknown[] => [push.payload['lifecycle'], push.payload['status']];

function senderStatus(id: string, status: string) {
  return api(relay, 'POST', `/v1/notifications/${id}/status`, { bearer: credential, body: { status } });
}

async function inboxId(id: string): Promise<string> {
  const list = await web.inbox('GET', '/v1/inbox/notifications');
  const item = (list.body['notifications'] as { id: string; inbox_id: string }[]).find(
    (candidate) => candidate.id === id,
  );
  assert.ok(item, `${id} in the inbox`);
  return item.inbox_id;
}

function answerAt(push: ReceivedPush, action: string, token?: string) {
  const answer = push.payload['answer'] as { url: string; token: string };
  return api(relay, 'POST', new URL(answer.url).pathname, { body: { action, token: token ?? answer.token } });
}

describe('relay push: what buzzes the phone', () => {
  it('a new request, new content, its end and its reopening push; a replay, an older update and the same content again do not', async () => {
    const id = nextId();
    const first = nextTime();
    assert.equal(
      (await deliver(relay, credential, id, delivered({ updated_at: first }), `k-${id}`)).status,
      201,
    );
    await pushesOf(id, 1, 'the first push');
    await deliver(relay, credential, id, delivered({ updated_at: first }), `k-${id}`);
    await deliver(
      relay,
      credential,
      id,
      delivered({ title: 'Older', updated_at: '2026-11-25T17:00:00.000Z' }),
    );
    await deliver(relay, credential, id, delivered({ updated_at: nextTime() }));
    await marker();
    assert.equal(pushes(id).length, 1, 'nothing new to show: no push');

    await deliver(relay, credential, id, delivered({ title: 'Run this now?', updated_at: nextTime() }));
    await pushesOf(id, 2, 'the push of the new content');
    assert.equal((await senderStatus(id, 'resolved')).status, 200);
    await pushesOf(id, 3, 'the closing push');
    assert.equal((await senderStatus(id, 'dismissed')).status, 200);
    await deliver(relay, credential, id, delivered({ status: 'resolved', updated_at: nextTime() }));
    await marker();
    assert.equal(pushes(id).length, 3, 'ending it again: no push');

    assert.equal((await deliver(relay, credential, id, delivered({ updated_at: nextTime() }))).status, 201);
    await pushesOf(id, 4, 'the push of the reopened request');
    assert.deepEqual(pushes(id).map(shape), [
      [1, 'active'],
      [1, 'active'],
      [1, 'resolved'],
      [2, 'active'],
    ]);
    assert.deepEqual(
      pushes(id)
        .slice(0, 2)
        .map((push) => [push.payload['revision'], push.payload['title']]),
      [
        [1, 'Run this?'],
        [2, 'Run this now?'],
      ],
    );
  });

  it('a request delivered already ended buzzes nobody', async () => {
    const id = nextId();
    assert.equal((await deliver(relay, credential, id, delivered({ status: 'dismissed' }))).status, 201);
    await marker();
    assert.deepEqual(pushes(id), []);
  });

  it('an end the sender delivers closes the alert on the phone', async () => {
    const id = nextId();
    await deliver(relay, credential, id, delivered({ updated_at: nextTime() }));
    await pushesOf(id, 1, 'the first push');
    const ended = await deliver(
      relay,
      credential,
      id,
      delivered({ status: 'resolved', updated_at: nextTime() }),
    );
    assert.deepEqual([ended.status, ended.body['status']], [200, 'resolved']);
    const [, closing] = await pushesOf(id, 2, 'the closing push');
    assert.equal(closing!.payload['status'], 'resolved');
  });

  it('a dismissal on the page closes the alert on the phone', async () => {
    const id = nextId();
    await deliver(relay, credential, id, delivered({ updated_at: nextTime() }));
    await pushesOf(id, 1, 'the first push');
    const path = `/v1/inbox/notifications/${await inboxId(id)}/status`;
    assert.equal((await web.inbox('POST', path, { status: 'dismissed', lifecycle: 1 })).status, 200);
    const [, closing] = await pushesOf(id, 2, 'the closing push');
    assert.equal(closing!.payload['status'], 'dismissed');
    assert.equal((await web.inbox('POST', path, { status: 'dismissed', lifecycle: 1 })).status, 200);
    await marker();
    assert.equal(pushes(id).length, 2, 'dismissed again: no push');
  });
});

describe('relay push: answering from the phone', () => {
  it('answers once with the push token, tells the sender, and closes the alert', async () => {
    const events = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    try {
      await events.until((reader) => reader.text.startsWith('retry:'));
      const id = nextId();
      await deliver(relay, credential, id, delivered({ revision: 4, updated_at: nextTime() }));
      const [push] = await pushesOf(id, 1, 'the first push');
      const answered = await answerAt(push!, 'deny');
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.deepEqual(
        [answered.body['status'], (answered.body['answer'] as { action: string }).action],
        ['resolved', 'deny'],
      );
      const again = await answerAt(push!, 'allow');
      assert.deepEqual([again.status, again.body['error']], [409, 'conflict']);
      assert.match(String(again.body['error_description']), /used already/);
      const answerEvents = () =>
        events.events
          .filter((frame) => frame.event === 'answer')
          .map((frame) => JSON.parse(frame.data!) as Record<string, unknown>)
          .filter((event) => event['notification_id'] === id);
      await events.until(() => answerEvents().length > 0);
      assert.deepEqual(
        answerEvents().map((event) => [event['action'], event['lifecycle'], event['revision']]),
        [['deny', 1, 4]],
      );
      const [, closing] = await pushesOf(id, 2, 'the closing push after the answer');
      assert.equal(closing!.payload['status'], 'resolved');
      const list = await web.inbox('GET', '/v1/inbox/notifications');
      const item = (list.body['notifications'] as { id: string; answer?: { action: string } }[]).find(
        (candidate) => candidate.id === id,
      );
      assert.equal(item?.answer?.action, 'deny');
    } finally {
      events.close();
    }
  });

  it("refuses another notification's token, a made-up one, a dismissed request's and an action it does not offer", async () => {
    const one = nextId();
    const other = nextId();
    await deliver(relay, credential, one, delivered({ updated_at: nextTime() }));
    await deliver(relay, credential, other, delivered({ updated_at: nextTime() }));
    const [onePush] = await pushesOf(one, 1, 'the first push');
    const [otherPush] = await pushesOf(other, 1, 'the other push');
    const foreign = await answerAt(
      onePush!,
      'allow',
      (otherPush!.payload['answer'] as { token: string }).token,
    );
    assert.deepEqual([foreign.status, foreign.body['error']], [403, 'forbidden']);
    const made = await answerAt(onePush!, 'allow', `nrt_${'A'.repeat(43)}`);
    assert.deepEqual([made.status, made.body['error']], [403, 'forbidden']);
    const odd = await answerAt(onePush!, 'always');
    assert.equal(odd.status, 400, JSON.stringify(odd.body));
    const path = `/v1/inbox/notifications/${await inboxId(one)}/status`;
    assert.equal((await web.inbox('POST', path, { status: 'dismissed', lifecycle: 1 })).status, 200);
    const late = await answerAt(onePush!, 'allow');
    assert.deepEqual([late.status, late.body['error']], [409, 'conflict']);
    const list = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (list.body['notifications'] as { id: string; status: string; answer?: unknown }[]).find(
      (candidate) => candidate.id === one,
    );
    assert.deepEqual([item?.status, item?.answer], ['dismissed', undefined]);
    const still = await answerAt(otherPush!, 'allow');
    assert.equal(still.status, 200, 'the refusals used up no token');
  });
});
