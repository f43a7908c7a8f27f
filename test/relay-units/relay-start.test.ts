/**
 * What an operator reads when notify-relay starts (src/relay-server/run-relay.ts, in process): the
 * address to give people, the setup link on it, the push contact warning, and why a start failed
 * (exit 1). test/relay/starting.test.ts sees the same of the relay process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:https';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, describe, it } from 'node:test';
import { openDatabase } from '../../src/relay-server/open-database.js';
import { RelayStore } from '../../src/relay-server/store.js';
import { SCHEMA_VERSION } from '../../src/relay-server/store-migrations.js';
import { VERSION } from '../../src/version.js';
import { makeThrowawayCert } from '../support/throwaway-cert.js';
import { within } from '../support/wait-for.js';
import { listeningUrl, run, stopAll } from './relay-run.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-start-'));
let folders = 0;
afterEach(stopAll);
after(() => rmSync(folder, { recursive: true, force: true }));

async function relayInfo(url: string): Promise<{ name: string }> {
  return (await (await fetch(`${url}/.well-known/notify-relay`)).json()) as { name: string };
}

/** The status of a GET trusting only `ca` (fetch has no per-request CA). */
function httpsStatus(url: string, ca: Buffer): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = get(url, { ca }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.once('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error(`no answer from ${url}`)));
  });
}

const newData = (): string => join(folder, `data-${++folders}`);
const CONTACT = ['--contact', 'mailto:ops@example.org'];
const NO_CONTACT =
  'notify-relay: no --contact (mailto: or https:) for phone push; push services may refuse pushes from a relay that gives none.\n';

describe('notify-relay starting, in process', () => {
  it('on every address: a localhost URL, the setup link on it, and the push contact warning', async () => {
    const relay = run(['--data', newData(), '--port', '0', '--host', '0.0.0.0']);
    const url = await listeningUrl(relay);
    assert.equal(await relay.stop(), 0);
    assert.match(url, /^http:\/\/localhost:\d+$/);
    const lines = relay.stdout().split('\n');
    assert.equal(lines[0], `notify-relay ${VERSION} listening on ${url}`);
    assert.match(
      lines[1]!,
      new RegExp(
        `^No account yet\\. Set up the operator account \\(this link works once\\): ${url}/setup\\?token=nru_[\\w-]+$`,
      ),
    );
    assert.ok(relay.stderr().startsWith(NO_CONTACT), relay.stderr());
    assert.match(relay.stderr(), /plain HTTP/);
  });

  it('on loopback: that address with the port it got, no plain HTTP warning', async () => {
    const relay = run(['--data', newData(), '--port', '0', ...CONTACT]);
    const url = await listeningUrl(relay);
    assert.equal(await relay.stop(), 0);
    assert.match(url, /^http:\/\/127\.0\.0\.1:(\d+)$/);
    assert.notEqual(new URL(url).port, '0');
    assert.equal(relay.stderr(), '');
  });

  it('with an https --public-url: that address, the setup link on it, and it is the push contact', async () => {
    const relay = run(['--data', newData(), '--port', '0', '--public-url', 'https://relay.example.org']);
    assert.equal(await listeningUrl(relay), 'https://relay.example.org');
    assert.equal(await relay.stop(), 0);
    assert.match(relay.stdout(), /\): https:\/\/relay\.example\.org\/setup\?token=nru_/);
    assert.equal(relay.stderr(), '');
  });

  it('an http --public-url is no push contact', async () => {
    const relay = run(['--data', newData(), '--port', '0', '--public-url', 'http://relay.example.org']);
    await listeningUrl(relay);
    assert.equal(await relay.stop(), 0);
    assert.equal(relay.stderr(), NO_CONTACT);
  });

  it('with a certificate and key: an https address, served with that certificate', async () => {
    const cert = makeThrowawayCert();
    try {
      const tls = ['--tls-cert', cert.certFile, '--tls-key', join(dirname(cert.certFile), 'key.pem')];
      const relay = run(['--data', newData(), '--port', '0', ...CONTACT, ...tls]);
      const url = await listeningUrl(relay);
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(await httpsStatus(`${url}/healthz`, cert.cert), 200);
      assert.equal(await relay.stop(), 0);
    } finally {
      cert.remove();
    }
  });

  for (const [host, shown] of [
    ['::1', '[::1]'],
    ['::', 'localhost'],
  ] as const) {
    it(`on the IPv6 address ${host}: the URL names it as ${shown}`, async () => {
      const relay = run(['--data', newData(), '--port', '0', '--host', host, ...CONTACT]);
      const url = await listeningUrl(relay);
      assert.match(url, new RegExp(`^http://${shown.replace(/[[\]]/g, '\\$&')}:\\d+$`));
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      assert.equal(await relay.stop(), 0);
    });
  }

  it('with a certificate on every address: an https localhost URL and no plain HTTP warning', async () => {
    const cert = makeThrowawayCert();
    try {
      const tls = ['--tls-cert', cert.certFile, '--tls-key', join(dirname(cert.certFile), 'key.pem')];
      const relay = run(['--data', newData(), '--port', '0', '--host', '0.0.0.0', ...CONTACT, ...tls]);
      assert.match(await listeningUrl(relay), /^https:\/\/localhost:\d+$/);
      assert.equal(await relay.stop(), 0);
      assert.equal(relay.stderr(), '');
    } finally {
      cert.remove();
    }
  });

  it('accounts from before names were compared without case: says which, and serves them', async () => {
    const data = newData();
    assert.equal(await within(run(['migrate', '--data', data]).exited, 'the migration'), 0);
    const db = new DatabaseSync(join(data, 'relay.db'));
    const add = db.prepare(
      'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, 0, 1)',
    );
    add.run('u_1', 'ada', 'h');
    add.run('u_2', 'Ada', 'h');
    db.close();
    const relay = run(['--data', data, '--port', '0', ...CONTACT]);
    await listeningUrl(relay);
    assert.equal(await relay.stop(), 0);
    assert.match(
      relay.stderr(),
      /^notify-relay: the accounts (ada, Ada|Ada, ada) differ only in case; each signs in with its exact spelling\. New user names are compared without case\.\n$/,
    );
  });

  it('once an account exists: no setup link', async () => {
    const data = newData();
    const store = await RelayStore.open(openDatabase({ data }));
    await store.insertUser({ id: 'u_1', username: 'ada', passwordHash: 'h', isOperator: true, createdAt: 1 });
    await store.close();
    const relay = run(['--data', data, '--port', '0', ...CONTACT]);
    await listeningUrl(relay);
    assert.equal(await relay.stop(), 0);
    assert.doesNotMatch(relay.stdout(), /setup/);
    assert.equal(relay.stdout().split('\n').length, 2);
  });
});

describe('a started relay answers, in process', () => {
  it('ready, under the host name or its --name, and its setup link opens the setup page once', async () => {
    const relay = run(['--data', newData(), '--port', '0', ...CONTACT]);
    const url = await listeningUrl(relay);
    const ready = await fetch(`${url}/readyz`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready' }]);
    assert.equal((await relayInfo(url)).name, `notify-relay on ${hostname()}`);
    const setup = /: (\S+\/setup\?token=\S+)\n/.exec(relay.stdout())![1]!;
    assert.equal((await fetch(setup)).status, 200);
    assert.equal((await fetch(`${url}/setup?token=nru_not-the-one`)).status, 404);
    assert.equal(await relay.stop(), 0);
    const named = run(['--data', newData(), '--port', '0', ...CONTACT, '--name', 'Ada relay']);
    assert.equal((await relayInfo(await listeningUrl(named))).name, 'Ada relay');
    assert.equal(await named.stop(), 0);
  });
});

describe('a started relay answers, in process: readiness', () => {
  it('a database a newer relay migrated meanwhile: /readyz says unavailable (503), so the balancer moves on', async () => {
    const data = newData();
    const relay = run(['--data', data, '--port', '0', ...CONTACT]);
    const url = await listeningUrl(relay);
    const db = new DatabaseSync(join(data, 'relay.db'));
    db.prepare('INSERT INTO relay_schema (version, applied_at) VALUES (?, 1)').run(SCHEMA_VERSION + 1);
    db.close();
    const ready = await fetch(`${url}/readyz`);
    assert.deepEqual([ready.status, await ready.json()], [503, { status: 'unavailable' }]);
    assert.equal(await relay.stop(), 0);
  });
});

describe('notify-relay failing to start, in process', () => {
  it('a port another program holds: says which and exits 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const relay = run(['--data', newData(), '--port', String(port), ...CONTACT]);
      assert.equal(await within(relay.exited, 'the failed start'), 1);
      assert.equal(
        relay.stderr(),
        `notify-relay cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
      assert.equal(relay.stdout(), '');
    } finally {
      holder.close();
    }
  });

  it('a TLS certificate it cannot read: says which file, exit 1', async () => {
    const missing = join(folder, 'missing-cert.pem');
    const tls = ['--tls-cert', missing, '--tls-key', join(folder, 'missing-key.pem')];
    const relay = run(['--data', newData(), '--port', '0', ...CONTACT, ...tls]);
    assert.equal(await within(relay.exited, 'the failed start'), 1);
    assert.equal(
      relay.stderr(),
      `notify-relay cannot start: ENOENT: no such file or directory, open '${missing}'\n`,
    );
  });

  it('a database it cannot reach: named without its password, exit 1', async () => {
    const relay = run([
      '--database',
      'postgres://relay:s3cret@127.0.0.1:1/notify_relay',
      '--port',
      '0',
      ...CONTACT,
    ]);
    assert.equal(await within(relay.exited, 'the failed start'), 1);
    assert.equal(
      relay.stderr(),
      'notify-relay cannot open its database postgres://relay@127.0.0.1:1/notify_relay: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });
});
