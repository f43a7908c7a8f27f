import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { gotify } from '../../../src/delivery/providers/gotify/gotify.js';
import { ntfy } from '../../../src/delivery/providers/ntfy/ntfy.js';
import { relay } from '../../../src/delivery/providers/relay/relay.js';
import { webhook } from '../../../src/delivery/providers/webhook/webhook.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

/** Rigs of the providers that speak HTTP to their service: a local HTTP receiver stands in for it. */

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
        assert.equal(body.version, 2);
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
          message: `${op.notification.message}\n\nci-agent · notify`,
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
          message: `${op.notification.message}\n\nci-agent · notify`,
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

export const relayRig: ProviderRig = {
  kind: relay,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const credential = secretValue('nrc_');
    // The receiver is on this machine: as a relay paired with --allow-private.
    const settings = { url: receiver.url, credential, allowPrivate: true };
    return {
      settings,
      secrets: [credential],
      refusedSettings: (port) => ({ ...settings, url: `http://127.0.0.1:${port}` }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({
          status: 201,
          body: '{"id":"x","lifecycle":3,"status":"active"}',
        })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        // docs/relay-protocol.md "Delivery": the notification under its own id, the lifecycle back.
        assert.deepEqual(result, { outcome: 'delivered', status: 201, reference: '3' });
        const request = last(receiver.requests);
        assert.equal(request.method, 'PUT');
        assert.equal(request.url, `/v1/notifications/${op.notification.id}`);
        assert.equal(request.headers.authorization, `Bearer ${credential}`);
        assert.equal(request.headers['idempotency-key'], op.idempotencyKey);
        assert.deepEqual(JSON.parse(request.body), {
          title: op.notification.title,
          message: op.notification.message,
          type: op.notification.type,
          priority: op.notification.priority,
          agent: op.notification.agent,
          project: op.notification.project,
          status: 'active',
          created_at: op.notification.createdAt,
          updated_at: op.notification.updatedAt,
        });
      },
      assertUpdated(update) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'PUT');
        assert.equal(request.url, `/v1/notifications/${update.notification.id}`);
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.equal(body.title, update.notification.title);
        assert.equal(body.updated_at, update.notification.updatedAt);
      },
      assertCleared(clear) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, `/v1/notifications/${clear.notification.id}/status`);
        assert.equal(request.headers.authorization, `Bearer ${credential}`);
        assert.deepEqual(JSON.parse(request.body), { status: 'resolved' });
      },
      close: () => receiver.close(),
    };
  },
};
