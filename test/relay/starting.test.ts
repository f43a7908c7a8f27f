/**
 * What an operator reads when notify-relay starts (src/relay-server/main.ts): the address to give
 * people, the setup link on it, the push contact warning, and why a start failed (exit 1).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { activeMutant, NOTIFY_RELAY, startRelay, type RelayProcess } from '../support/relay-process.js';
import { waitFor } from '../support/wait-for.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-starting-'));
let starts = 0;
after(() => rmSync(folder, { recursive: true, force: true }));

/** The setup link, printed just after the address. */
const setupLink = (relay: RelayProcess): Promise<string> => waitFor(() => relay.setupUrl, 'the setup link');

/** A start expected to fail (with a push contact, so no warning): its exit code and what it printed. */
function failedStart(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      NOTIFY_RELAY,
      '--data',
      join(folder, `data-${++starts}`),
      '--contact',
      'mailto:ops@example.org',
      ...args,
    ],
    {
      env: { PATH: process.env['PATH'], ...activeMutant() },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A start that hangs instead of failing is stopped, and shows as a null status.
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe('notify-relay starting', () => {
  it('on every address, it prints a localhost URL and its setup link, and warns that phone pushes go without a contact', async () => {
    const relay = await startRelay({ args: ['--host', '0.0.0.0'] });
    try {
      assert.match(relay.url, /^http:\/\/localhost:\d+$/);
      assert.ok((await setupLink(relay)).startsWith(`${relay.url}/setup?token=nru_`));
      assert.match(
        relay.output(),
        /notify-relay: no --contact \(mailto: or https:\) for phone push; push services may refuse pushes from a relay that gives none\./,
      );
    } finally {
      await relay.cleanup();
    }
  });

  it('with an https --public-url it prints that address, the setup link on it, and takes it as the push contact', async () => {
    const relay = await startRelay({ args: ['--public-url', 'https://relay.example.org'] });
    try {
      assert.equal(relay.url, 'https://relay.example.org');
      assert.ok((await setupLink(relay)).startsWith('https://relay.example.org/setup?token=nru_'));
      assert.doesNotMatch(relay.output(), /no --contact/);
    } finally {
      await relay.cleanup();
    }
  });

  it('a port another program holds: says which and exits 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const start = await failedStart(['--port', String(port)]);
      assert.equal(start.status, 1);
      assert.equal(
        start.stderr,
        `notify-relay cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
      assert.doesNotMatch(start.stdout, /listening on/);
    } finally {
      holder.close();
    }
  });

  it('a database it cannot reach: named without its password, exit 1', async () => {
    const start = await failedStart(['--database', 'postgres://relay:s3cret@127.0.0.1:1/notify_relay']);
    assert.equal(start.status, 1);
    assert.equal(
      start.stderr,
      'notify-relay cannot open its database postgres://relay@127.0.0.1:1/notify_relay: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('a TLS certificate it cannot read: says which file, exit 1', async () => {
    const missing = join(folder, 'missing-cert.pem');
    const start = await failedStart(['--tls-cert', missing, '--tls-key', join(folder, 'missing-key.pem')]);
    assert.equal(start.status, 1);
    assert.equal(
      start.stderr,
      `notify-relay cannot start: ENOENT: no such file or directory, open '${missing}'\n`,
    );
  });
});
