import assert from 'node:assert/strict';
import { apprise } from '../../../src/delivery/providers/apprise/apprise.js';
import { email } from '../../../src/delivery/providers/email/email.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver } from './http-receiver.js';
import { last, rawRequests, setHttp, type ProviderRig } from './rig.js';
import { startSmtpReceiver } from './smtp-receiver.js';

/** Rigs of e-mail (a real SMTP server) and Apprise (the real apprise posting to a json:// receiver). */

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
        assert.equal(body.message, `${op.notification.message}\n\nci-agent · notify`);
        assert.equal(body.type, 'warning');
      },
      close: () => receiver.close(),
    };
  },
};
