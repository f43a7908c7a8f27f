import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { runNode } from '../support/run-node.js';
import { makeThrowawayCert, type ThrowawayCert } from '../support/throwaway-cert.js';

const SENDER = fileURLToPath(new URL('./support/send-email.js', import.meta.url));

interface TlsReceiver {
  port: number;
  secured: boolean[];
  server: SMTPServer;
}

async function startTlsReceiver(secure: boolean, key: Buffer, cert: Buffer): Promise<TlsReceiver> {
  const secured: boolean[] = [];
  const server = new SMTPServer({
    secure,
    key,
    cert,
    logger: false,
    onAuth(auth, session, callback) {
      secured.push(session.secure);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  // A client that distrusts the certificate hangs up mid-handshake: expected here, not a test failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, secured, server };
}

describe('email over TLS and STARTTLS', () => {
  let certificate: ThrowawayCert;
  let tls: TlsReceiver;
  let starttls: TlsReceiver;
  before(async () => {
    certificate = makeThrowawayCert();
    tls = await startTlsReceiver(true, certificate.key, certificate.cert);
    starttls = await startTlsReceiver(false, certificate.key, certificate.cert);
  });
  after(async () => {
    await new Promise<void>((resolve) => tls.server.close(() => resolve()));
    await new Promise<void>((resolve) => starttls.server.close(() => resolve()));
    certificate.remove();
  });

  async function send(port: number, security: string, trusted: boolean): Promise<unknown> {
    const settings = {
      host: 'localhost',
      port,
      security,
      username: 'notify',
      password: 'pw',
      from: 'n@example.com',
      to: 'me@example.com',
    };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NOTIFY_TEST_EMAIL_SETTINGS: JSON.stringify(settings),
    };
    if (trusted) env.NODE_EXTRA_CA_CERTS = certificate.certFile;
    const run = await runNode(SENDER, [], { env });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  }

  it('delivers over TLS from the first byte and logs in only once encrypted (security tls)', async () => {
    const result = (await send(tls.port, 'tls', true)) as { outcome: string };
    assert.equal(result.outcome, 'delivered');
    assert.deepEqual(tls.secured, [true]);
  });

  it('upgrades with STARTTLS before logging in (security starttls)', async () => {
    const result = (await send(starttls.port, 'starttls', true)) as { outcome: string };
    assert.equal(result.outcome, 'delivered');
    assert.deepEqual(starttls.secured, [true]);
  });

  it('retries with tls_error and never logs in when the certificate is not trusted', async () => {
    const before = tls.secured.length;
    assert.deepEqual(await send(tls.port, 'tls', false), { outcome: 'retry', reason: 'tls_error' });
    assert.equal(tls.secured.length, before);
  });
});
