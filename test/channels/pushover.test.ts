import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog } from '../support/broker-log.js';
import { useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { callJson } from '../support/outbox-broker.js';
import { startPushoverApi, type PushoverApi } from '../support/pushover-api.js';
import { waitFor } from '../support/wait-for.js';
import { channelProvider } from './support.js';

interface OutboxItem {
  id: number;
  providerId: string;
  operation: string;
  state: string;
  attempts: number;
  lastReason: string | null;
  seen: { at: string; device: string | null } | null;
}

/** Pushover's own floor between two polls of one receipt (pushover.net/api/receipts). */
const RECEIPT_POLL_FLOOR_MS = 5000;

/** Pushover through the real notifyd and its outbox, against a stand-in of the Pushover API. */
describe(
  'pushover: alerts by priority, emergency alerts followed and cancelled',
  { timeout: 120_000 },
  () => {
    const broker = useBroker();
    let api: PushoverApi;
    let providerId: string;

    before(async () => {
      api = await startPushoverApi();
      providerId = await channelProvider(broker, 'pushover', {
        userKey: api.user,
        appToken: api.token,
        device: 'pixel',
        sound: 'siren',
        clickUrl: 'https://notify.example/inbox',
        // Below Pushover's 30 s minimum: sent as 30, which the API accepts.
        retry: 10,
        expire: 20_000,
        apiUrl: api.url,
      });
    });
    after(() => api.close());

    async function raise(fields: Record<string, unknown>): Promise<string> {
      const created = await callJson(broker, 'POST', '/v1/notifications', { message: 'details', ...fields });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body!['id'] as string;
    }

    async function outboxOf(id: string): Promise<OutboxItem[]> {
      return (await callJson(broker, 'GET', `/v1/outbox?notificationId=${id}`))
        .body as unknown as OutboxItem[];
    }

    it('maps low, normal and high to Pushover priorities -1, 0 and 1, with the link and sound', async () => {
      for (const [priority, expected] of [
        ['low', '-1'],
        ['normal', '0'],
        ['high', '1'],
      ] as const) {
        const next = api.nextMessage();
        await raise({ title: `A ${priority} one`, priority });
        const message = await next;
        assert.equal(message.fields['title'], `A ${priority} one`);
        assert.equal(message.fields['priority'], expected);
        assert.equal(message.fields['device'], 'pixel');
        assert.equal(message.fields['sound'], 'siren');
        assert.equal(message.fields['url'], 'https://notify.example/inbox');
        assert.equal(message.fields['url_title'], 'Open in Notify');
        assert.match(message.fields['message']!, /^details\n\n/);
        assert.equal(message.receipt, undefined);
        assert.equal(message.fields['retry'], undefined);
      }
    });

    it('sends a critical one as an emergency alert, polls its receipt, shows it seen on the phone, cancels it when resolved', async () => {
      const next = api.nextMessage();
      const id = await raise({ title: 'Production is down', priority: 'critical' });
      const message = await next;
      assert.equal(message.fields['priority'], '2');
      assert.equal(message.fields['retry'], '30', 'retry raised to the API minimum');
      assert.equal(message.fields['expire'], '10800', 'expire cut to the API maximum');
      const receipt = api.receipts.get(message.receipt!)!;

      // Two polls while nobody has looked: Pushover asks for no more than one every 5 s.
      await waitFor(() => receipt.polls.length >= 2, 'two polls of the receipt', 20_000);
      const gap = receipt.polls[1]! - receipt.polls[0]!;
      assert.ok(gap >= RECEIPT_POLL_FLOOR_MS, `polled again after ${gap} ms`);
      assert.equal((await outboxOf(id)).find((item) => item.operation === 'send')!.seen, null);

      api.acknowledge(receipt.receipt, 'pixel');
      const send = await waitFor(
        async () => (await outboxOf(id)).find((item) => item.operation === 'send' && item.seen !== null),
        'the send shown as seen',
        20_000,
      );
      assert.equal(send.seen!.device, 'pixel');
      assert.ok(
        receipt.polls.every((at, i) => i === 0 || at - receipt.polls[i - 1]! >= RECEIPT_POLL_FLOOR_MS),
      );
      const env = { ...broker.home.env, NOTIFY_TOKEN: broker.token, NOTIFY_PORT: String(broker.port) };
      const listed = await runNotifyctl(['outbox', 'list', '--state', 'delivered'], { env });
      assert.equal(listed.code, 0, listed.stderr);
      const line = listed.stdout.split('\n').find((text) => text.startsWith(`${send.id} `));
      assert.match(line ?? '', /\(seen on the phone at .+, pixel\)$/);

      assert.equal(receipt.cancelled, false);
      const resolved = await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
      assert.equal(resolved.status, 200);
      await waitFor(() => receipt.cancelled, 'the receipt cancelled');
      const cancels = api.calls.filter((call) => call.path.endsWith('/cancel.json'));
      assert.deepEqual(
        cancels.map((call) => [call.path, call.status]),
        [[`/1/receipts/${receipt.receipt}/cancel.json`, 200]],
      );
    });

    it('sends again after a 429 once the wait it asked for is over', async () => {
      api.limitNext(1, 1);
      const id = await raise({ title: 'Over the limit?', priority: 'high' });
      const message = await waitFor(
        () => api.messages.find((m) => m.fields['title'] === 'Over the limit?'),
        'the message sent again',
      );
      assert.equal(message.fields['priority'], '1');
      // The broker records the delivery once Pushover's answer is read, a moment after the message lands.
      const send = await waitFor(
        async () =>
          (await outboxOf(id)).find(
            (item) =>
              item.operation === 'send' && item.providerId === providerId && item.state !== 'in_flight',
          ),
        'the send recorded',
      );
      assert.equal(send.state, 'delivered');
      assert.equal(send.attempts, 2, 'the 429 attempt and the one that delivered');
      assert.equal(api.calls.filter((call) => call.status === 429).length, 1);
    });

    it('reports a wrong user key as refused credentials', async () => {
      const wrong = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
      const wrongKey = await channelProvider(
        broker,
        'pushover',
        { userKey: wrong, appToken: api.token, apiUrl: api.url },
        'pushover with a wrong user key',
      );
      const test = await callJson(broker, 'POST', `/v1/providers/${wrongKey}/test`);
      assert.equal(test.body!['outcome'], 'reject');
      assert.equal(test.body!['reason'], 'credentials_refused');
      // Out of the way of the next test's sends.
      assert.equal((await callJson(broker, 'POST', `/v1/providers/${wrongKey}/disable`)).status, 200);
    });

    it('refuses a wrong app token: the send is dead and the provider health says why; no key is logged', async () => {
      const wrong = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
      const wrongToken = await channelProvider(
        broker,
        'pushover',
        { userKey: api.user, appToken: wrong, apiUrl: api.url },
        'pushover with a wrong app token',
      );
      const id = await raise({ title: 'Refused?', priority: 'normal' });
      const dead = await waitFor(
        async () =>
          (await outboxOf(id)).find((item) => item.providerId === wrongToken && item.state === 'dead'),
        'the send refused',
      );
      assert.equal(dead.lastReason, 'credentials_refused');
      const providers = (await callJson(broker, 'GET', '/v1/providers')).body as unknown as {
        id: string;
        health: string;
        lastResult: { reason?: string } | null;
      }[];
      const shown = providers.find((provider) => provider.id === wrongToken)!;
      assert.equal(shown.health, 'failing');
      assert.equal(shown.lastResult?.reason, 'credentials_refused');

      const log = readLog(broker.home);
      const listed = JSON.stringify(providers);
      assert.ok(
        api.calls.some((call) => /^\/1\/receipts\/\w+\.json$/.test(call.path)),
        'receipts were polled',
      );
      for (const secret of [wrong, api.user, api.token]) {
        assert.ok(!log.includes(secret), 'a Pushover key is in the broker log');
        assert.ok(!listed.includes(secret), 'a Pushover key is in the providers API');
      }
    });
  },
);
