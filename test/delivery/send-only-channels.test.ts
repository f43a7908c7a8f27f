import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { readLog } from '../support/broker-log.js';
import { chatCardText, startGoogleChatSpace } from '../support/google-chat-api.js';
import { callJson, type Body } from '../support/outbox-broker.js';
import { startTeamsWorkflow, teamsCardText } from '../support/teams-api.js';
import { waitFor } from '../support/wait-for.js';
import type { WebhookStandIn } from '../support/webhook-stand-in.js';

/**
 * Microsoft Teams and Google Chat through the real notifyd and its outbox, against stand-ins of
 * their incoming webhooks that refuse a card their schema would refuse.
 */

interface Channel {
  kind: string;
  start(): Promise<WebhookStandIn & { webhookUrl: string }>;
  /** The text a person reads on the card. */
  text(message: unknown): string[];
  /** The part of the URL that is the capability. */
  secretOf(standIn: WebhookStandIn & { webhookUrl: string }): string;
}

const CHANNELS: Channel[] = [
  {
    kind: 'teams',
    start: startTeamsWorkflow,
    text: teamsCardText,
    secretOf: (standIn) => (standIn as Awaited<ReturnType<typeof startTeamsWorkflow>>).sig,
  },
  {
    kind: 'google-chat',
    start: startGoogleChatSpace,
    text: chatCardText,
    secretOf: (standIn) => (standIn as Awaited<ReturnType<typeof startGoogleChatSpace>>).token,
  },
];

for (const channel of CHANNELS) {
  describe(`${channel.kind}: a send-only channel through the outbox`, () => {
    const broker = useBroker();
    let service: WebhookStandIn & { webhookUrl: string };
    let providerId: string;
    const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
    const itemsOf = async (id: string): Promise<Body[]> =>
      (await json('GET', `/v1/outbox?notificationId=${id}`)).body as Body[];
    const notify = async (fields: Record<string, unknown> = {}): Promise<string> => {
      const created = await json('POST', '/v1/notifications', {
        title: 'Deploy needs you',
        message: 'Ship <b>v2</b> to production?',
        priority: 'high',
        agent: 'claude-code',
        project: 'shop',
        ...fields,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body!['id'] as string;
    };

    before(async () => {
      service = await channel.start();
      const created = await json('POST', '/v1/providers', {
        kind: channel.kind,
        name: 'team room',
        settings: { webhookUrl: service.webhookUrl, clickUrl: 'https://example.com/runs/7' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      providerId = created.body!['id'] as string;
      await json('POST', `/v1/providers/${providerId}/enable`);
      const route = await json('POST', '/v1/routes', { providerId, minimumPriority: 'low' });
      await json('POST', `/v1/routes/${route.body!['id'] as string}/enable`);
    });
    after(() => service.close());

    it('posts a card the service accepts, with the title, message, choices and who asked', async () => {
      const seen = service.accepted.length;
      const id = await notify({
        key: 'deploy:shop',
        actions: [
          { id: 'allow', label: 'Allow' },
          { id: 'deny', label: 'Deny' },
        ],
      });
      const text = channel.text(await service.nextAccepted(seen)).join('\n');
      assert.match(text, /Deploy needs you/);
      assert.match(text, /Ship &lt;b&gt;v2&lt;\/b&gt; to production\?|Ship <b>v2<\/b> to production\?/);
      assert.match(text, /Waiting for an answer in Notify: Allow \/ Deny/);
      assert.match(text, /claude-code · shop/);
      await waitFor(async () => (await itemsOf(id))[0]?.['state'] === 'delivered', 'the delivered item');
    });

    it('is send-only: resolving the notification queues nothing more for it', async () => {
      const seen = service.accepted.length;
      const id = await notify();
      await service.nextAccepted(seen);
      await waitFor(async () => (await itemsOf(id))[0]?.['state'] === 'delivered', 'the delivered item');
      await json('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
      // The outbox writes a change's items with the change itself: none were written for the resolve.
      assert.deepEqual(
        (await itemsOf(id)).map((item) => item['operation']),
        ['send'],
      );
    });

    if (channel.kind === 'google-chat') {
      it("puts a key's next lifecycle in the same thread", async () => {
        const seen = service.accepted.length;
        const first = await notify({ key: 'nightly:shop', title: 'Nightly failed' });
        await service.nextAccepted(seen);
        await json('PATCH', `/v1/notifications/${first}`, { status: 'resolved' });
        await notify({ key: 'nightly:shop', title: 'Nightly failed again' });
        await service.nextAccepted(seen + 1);
        const threads = (service as Awaited<ReturnType<typeof startGoogleChatSpace>>).threads;
        assert.equal(threads.get('nightly:shop'), 2);
        assert.match(service.requests.at(-1)!.url, /messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD/);
      });
    }

    it('waits as long as a 429 Retry-After asks, then delivers', async () => {
      const before = service.requests.length;
      service.failNext({ status: 429, headers: { 'retry-after': '2' } });
      const id = await notify({ title: 'Rate limited once' });
      await waitFor(
        async () => (await itemsOf(id))[0]?.['state'] === 'delivered',
        'the retried delivery',
        15_000,
      );
      const [first, second] = service.requests.slice(before);
      assert.ok(first && second, 'two requests reached the service');
      assert.ok(second.at - first.at >= 1900, `the retry came ${second.at - first.at} ms after the 429`);
      assert.equal((await itemsOf(id))[0]?.['attempts'], 2);
    });

    it('dead-letters at once when the service answers 404 (a deleted webhook)', async () => {
      const before = service.requests.length;
      service.failNext({ status: 404, body: '{"error":"not found"}' });
      const id = await notify({ title: 'Nobody home' });
      const item = await waitFor(async () => {
        const [found] = await itemsOf(id);
        return found?.['state'] === 'dead' && found;
      }, 'the dead item');
      assert.equal(item['lastReason'], 'http_404');
      assert.equal(service.requests.length - before, 1);
    });

    it('never shows or logs the webhook URL, which is the capability', async () => {
      const shown = JSON.stringify([
        (await json('GET', '/v1/providers')).body,
        (await json('GET', '/v1/outbox')).body,
      ]);
      const log = readLog(broker.home);
      assert.match(log, /http_429|http_404/);
      for (const text of [shown, log]) {
        assert.ok(!text.includes(channel.secretOf(service)), 'the secret part of the URL leaked');
        assert.ok(!text.includes(`127.0.0.1:${service.port}`), 'the URL leaked');
      }
    });
  });
}
