import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { apprise } from '../../../src/delivery/providers/apprise/apprise.js';
import { email } from '../../../src/delivery/providers/email/email.js';
import { gotify } from '../../../src/delivery/providers/gotify/gotify.js';
import { ntfy } from '../../../src/delivery/providers/ntfy/ntfy.js';
import { webhook } from '../../../src/delivery/providers/webhook/webhook.js';
import type {
  DeliveryOperation,
  DeliveryResult,
  ProviderKind,
  SettingValues,
} from '../../../src/delivery/provider.js';
import { freePort } from '../../support/broker-process.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './http-receiver.js';
import { startSmtpReceiver } from './smtp-receiver.js';

/**
 * One rig per provider: its real local receiver, settings that point at it, and what that service's
 * public documentation says a delivery looks like. The conformance suite drives all of them alike.
 */

export type Failure = 'ok' | 'http500' | 'http503' | 'http400' | 'http429' | 'hang';

export type Expected = Pick<DeliveryResult, 'outcome'> & { reason?: string; retryAfterMs?: number };

export interface Rig {
  settings: SettingValues;
  secrets: string[];
  /** The same settings aimed at a loopback port where nothing listens. */
  refusedSettings(port: number): SettingValues;
  set(failure: Failure): void;
  /** Every request or mail the receiver got, as text. */
  received(): string[];
  /** Asserts the last delivery has the shape the service's documentation gives. */
  assertDelivered(operation: DeliveryOperation, result: DeliveryResult): void;
  /** Lifecycle sync, where the kind declares it: what the receiver got for an update or a clear. */
  assertUpdated?(update: DeliveryOperation): void;
  assertCleared?(clear: DeliveryOperation): void;
  close(): Promise<void>;
}

export interface ProviderRig {
  kind: ProviderKind;
  start(): Promise<Rig>;
  /** The outcome each failure gives with this provider; absent where the protocol has no such answer. */
  expected: Partial<Record<Exclude<Failure, 'ok' | 'hang'> | 'refused', Expected>>;
  /** Long enough for the provider's own start-up (Apprise is a Python program). */
  timeoutMs: number;
}

const HTTP_EXPECTED: ProviderRig['expected'] = {
  http500: { outcome: 'retry', reason: 'http_500' },
  http503: { outcome: 'retry', reason: 'http_503' },
  http400: { outcome: 'reject', reason: 'http_400' },
  http429: { outcome: 'retry', reason: 'http_429', retryAfterMs: 7000 },
  refused: { outcome: 'retry', reason: 'connection_refused' },
};

function setHttp(
  receiver: HttpReceiver,
  failure: Failure,
  ok: () => { status: number; body?: string },
): void {
  if (failure === 'hang') return receiver.answer('hang');
  if (failure === 'ok') return receiver.answer(() => ok());
  if (failure === 'http429') return receiver.answer({ status: 429, headers: { 'retry-after': '7' } });
  receiver.answer({ status: Number(failure.slice(4)), body: 'receiver error text' });
}

function rawRequests(receiver: HttpReceiver): string[] {
  return receiver.requests.map((r) => `${r.method} ${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`);
}

function last<T>(items: T[]): T {
  const item = items[items.length - 1];
  assert.ok(item !== undefined, 'the receiver got nothing');
  return item;
}

export const webhookRig: ProviderRig = {
  kind: webhook,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const signingSecret = `whsec_${Buffer.from(secretValue('key-')).toString('base64')}`;
    const bearerToken = secretValue('bearer-');
    const headerValue = secretValue('hdr-');
    const settings = {
      url: `${receiver.url}/hooks/notify`,
      signingSecret,
      bearerToken,
      headerName: 'X-Api-Key',
      headerValue,
    };
    return {
      settings,
      secrets: [signingSecret, bearerToken, headerValue],
      refusedSettings: (port) => ({ ...settings, url: `http://127.0.0.1:${port}/hooks/notify` }),
      set: (failure) => setHttp(receiver, failure, () => ({ status: 204 })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.equal(result.outcome, 'delivered');
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/hooks/notify');
        assert.equal(request.headers['content-type'], 'application/json');
        assert.equal(request.headers.authorization, `Bearer ${bearerToken}`);
        assert.equal(request.headers['x-api-key'], headerValue);
        assert.equal(request.headers['webhook-id'], op.idempotencyKey);
        // The Standard Webhooks reference verifier accepts the signature.
        new Webhook(signingSecret).verify(request.body, request.headers as Record<string, string>);
        const body = JSON.parse(request.body) as {
          version: number;
          type: string;
          data: Record<string, unknown>;
        };
        assert.equal(body.version, 1);
        assert.equal(body.type, op.event);
        assert.equal(body.data.id, op.notification.id);
        assert.equal(body.data.title, op.notification.title);
        assert.equal(body.data.message, op.notification.message);
        assert.equal(body.data.priority, op.notification.priority);
        assert.equal(body.data.status, op.notification.status);
      },
      assertUpdated(update) {
        const body = JSON.parse(last(receiver.requests).body) as {
          type: string;
          data: Record<string, unknown>;
        };
        assert.equal(body.type, 'notification.updated');
        assert.equal(body.data.title, update.notification.title);
      },
      assertCleared(clear) {
        const body = JSON.parse(last(receiver.requests).body) as {
          type: string;
          data: Record<string, unknown>;
        };
        assert.equal(body.type, clear.event);
        assert.equal(body.data.status, clear.notification.status);
      },
      close: () => receiver.close(),
    };
  },
};

export const ntfyRig: ProviderRig = {
  kind: ntfy,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const accessToken = secretValue('tk_');
    const settings = {
      serverUrl: `${receiver.url}/`,
      topic: 'notify-alerts',
      accessToken,
      clickUrl: 'https://example.com/runs/7',
    };
    return {
      settings,
      secrets: [accessToken],
      refusedSettings: (port) => ({ ...settings, serverUrl: `http://127.0.0.1:${port}` }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({ status: 200, body: '{"id":"xE73Iyuabi","event":"message"}' })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.equal(result.outcome, 'delivered');
        const request = last(receiver.requests);
        // JSON publishing: POST to the server root with the topic in the body (ntfy docs, "Publish as JSON").
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/');
        assert.equal(request.headers.authorization, `Bearer ${accessToken}`);
        assert.equal(request.headers['idempotency-key'], op.idempotencyKey);
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.deepEqual(body, {
          topic: 'notify-alerts',
          title: op.notification.title,
          message: op.notification.message,
          priority: 4,
          tags: ['warning'],
          click: 'https://example.com/runs/7',
          sequence_id: op.notification.id,
        });
        assert.ok(result.outcome === 'delivered' && result.reference === op.notification.id);
      },
      assertUpdated(update) {
        // Publishing again with the same sequence id replaces the notification on the phone.
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.equal(body.sequence_id, update.reference);
        assert.equal(body.title, update.notification.title);
      },
      assertCleared(clear) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'PUT');
        assert.equal(request.url, `/notify-alerts/${clear.reference ?? ''}/clear`);
        assert.equal(request.headers.authorization, `Bearer ${accessToken}`);
      },
      close: () => receiver.close(),
    };
  },
};

export const gotifyRig: ProviderRig = {
  kind: gotify,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const appToken = secretValue('A');
    const clientToken = secretValue('C');
    const settings = { serverUrl: receiver.url, appToken, clientToken, markdown: true };
    return {
      settings,
      secrets: [appToken, clientToken],
      refusedSettings: (port) => ({ ...settings, serverUrl: `http://127.0.0.1:${port}` }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({
          status: 200,
          body: '{"id":42,"appid":1,"message":"m","title":"t","priority":8,"date":"2026-11-23T10:00:00Z"}',
        })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.deepEqual(result, { outcome: 'delivered', status: 200, reference: '42' });
        const request = last(receiver.requests);
        // Gotify's API: POST /message with the application token in X-Gotify-Key.
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/message');
        assert.equal(request.headers['x-gotify-key'], appToken);
        assert.deepEqual(JSON.parse(request.body), {
          title: op.notification.title,
          message: op.notification.message,
          priority: 8,
          extras: {
            'notify::delivery': { idempotencyKey: op.idempotencyKey },
            'client::display': { contentType: 'text/markdown' },
          },
        });
      },
      assertCleared(clear) {
        // Deleting a message takes a client token (Gotify API: DELETE /message/{id}).
        const request = last(receiver.requests);
        assert.equal(request.method, 'DELETE');
        assert.equal(request.url, `/message/${clear.reference ?? ''}`);
        assert.equal(request.headers['x-gotify-key'], clientToken);
      },
      close: () => receiver.close(),
    };
  },
};

export const emailRig: ProviderRig = {
  kind: email,
  expected: {
    http500: { outcome: 'retry', reason: 'smtp_451' },
    http503: { outcome: 'retry', reason: 'smtp_451' },
    http400: { outcome: 'reject', reason: 'smtp_550' },
    refused: { outcome: 'retry', reason: 'connection_refused' },
  },
  timeoutMs: 1000,
  async start() {
    const receiver = await startSmtpReceiver();
    const password = secretValue('pw-');
    const settings = {
      host: '127.0.0.1',
      port: receiver.port,
      security: 'none',
      username: 'notify',
      password,
      from: 'Notify <notify@example.com>',
      to: 'me@example.com, you@example.com',
    };
    return {
      settings,
      secrets: [password],
      refusedSettings: (port) => ({ ...settings, port }),
      set: (failure) =>
        receiver.mode(
          failure === 'ok' || failure === 'hang'
            ? failure
            : failure === 'http400'
              ? 'permanent'
              : 'transient',
        ),
      received: () =>
        receiver.mails.map((mail) => `${mail.subject ?? ''}\n${mail.text ?? ''}\n${String(mail.html)}`),
      assertDelivered(op, result) {
        assert.equal(result.outcome, 'delivered');
        assert.deepEqual(last(receiver.logins), { username: 'notify', password });
        const mail = last(receiver.mails);
        assert.equal(mail.subject, op.notification.title);
        assert.deepEqual(
          (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap(
            (to) => to?.value.map((a) => a.address) ?? [],
          ),
          ['me@example.com', 'you@example.com'],
        );
        assert.ok(
          mail.text?.includes(op.notification.message ?? '!'),
          'the plain text part carries the message',
        );
        const html = String(mail.html);
        assert.ok(html.includes('Build &lt;b&gt;failed&lt;/b&gt; &amp; stopped'), html);
        assert.ok(!html.includes('<script>'), 'the HTML part escapes the message');
        assert.equal(mail.messageId, `<${op.idempotencyKey}@notify.localhost>`);
        assert.equal(mail.headers.get('x-notify-idempotency-key'), op.idempotencyKey);
      },
      close: () => receiver.close(),
    };
  },
};

export const appriseRig: ProviderRig = {
  kind: apprise,
  expected: {
    // Apprise exits 1 for any failed service and does not say why, so every failure is retried.
    http500: { outcome: 'retry', reason: 'apprise_exit_1' },
    http503: { outcome: 'retry', reason: 'apprise_exit_1' },
    http400: { outcome: 'retry', reason: 'apprise_exit_1' },
    refused: { outcome: 'retry', reason: 'apprise_exit_1' },
  },
  timeoutMs: 3000,
  async start() {
    const receiver = await startHttpReceiver();
    const password = secretValue('pw');
    const url = `json://notify:${password}@127.0.0.1:${receiver.port}/inbox`;
    return {
      settings: { url },
      secrets: [url, password],
      refusedSettings: (port) => ({ url: `json://notify:${password}@127.0.0.1:${port}/inbox` }),
      set: (failure) => setHttp(receiver, failure, () => ({ status: 200 })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.deepEqual(result, { outcome: 'delivered' });
        const request = last(receiver.requests);
        // Apprise's JSON notification: POST with basic auth and {version, title, message, type}.
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/inbox');
        assert.equal(
          request.headers.authorization,
          `Basic ${Buffer.from(`notify:${password}`).toString('base64')}`,
        );
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.equal(body.version, '1.0');
        assert.equal(body.title, op.notification.title);
        assert.equal(body.message, op.notification.message);
        assert.equal(body.type, 'warning');
      },
      close: () => receiver.close(),
    };
  },
};

export const PROVIDER_RIGS: readonly ProviderRig[] = [webhookRig, ntfyRig, gotifyRig, emailRig, appriseRig];

export { freePort };
