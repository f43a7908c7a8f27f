import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { email } from '../../src/delivery/providers/email/email.js';
import { operation, secretValue } from './support/fixtures.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver.js';

describe('email provider security', () => {
  let receiver: SmtpReceiver;
  before(async () => {
    receiver = await startSmtpReceiver();
  });
  after(() => receiver.close());

  it('rejects with smtp_starttls_unavailable, sending no password, when starttls is required and not offered', async () => {
    const password = secretValue('pw-');
    const result = await email.deliver(operation(), {
      settings: {
        host: '127.0.0.1',
        port: receiver.port,
        security: 'starttls',
        username: 'notify',
        password,
        from: 'notify@example.com',
        to: 'me@example.com',
      },
      signal: AbortSignal.timeout(5000),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'smtp_starttls_unavailable' });
    assert.deepEqual(receiver.logins, []);
    assert.deepEqual(receiver.mails, []);
  });
});
