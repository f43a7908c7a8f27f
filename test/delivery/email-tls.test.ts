import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { runNode } from '../support/run-node.js';

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
  let dir: string;
  let tls: TlsReceiver;
  let starttls: TlsReceiver;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'notify-smtp-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const key = readFileSync(join(dir, 'key.pem'));
    const cert = readFileSync(join(dir, 'cert.pem'));
    tls = await startTlsReceiver(true, key, cert);
    starttls = await startTlsReceiver(false, key, cert);
  });
  after(async () => {
    await new Promise<void>((resolve) => tls.server.close(() => resolve()));
    await new Promise<void>((resolve) => starttls.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
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
    if (trusted) env.NODE_EXTRA_CA_CERTS = join(dir, 'cert.pem');
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
