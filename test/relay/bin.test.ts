/** The notify-relay program itself: its bin, options, first and later starts, its files, a clean stop. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NOTIFY_RELAY, startRelay } from '../support/relay-process.js';
import { setUpOperator } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';

const ROOT = new URL('../../../', import.meta.url);
const PACKAGE = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  bin: Record<string, string>;
  version: string;
};

function run(args: string[]) {
  return spawnSync(process.execPath, [NOTIFY_RELAY, ...args], { encoding: 'utf8', timeout: 10_000 });
}

describe('notify-relay', () => {
  it('is a bin of the package, with --help and --version', () => {
    assert.equal(PACKAGE.bin['notify-relay'], 'dist/src/relay-server/main.js');
    assert.equal(NOTIFY_RELAY, new URL(PACKAGE.bin['notify-relay']!, ROOT).pathname);
    const help = run(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^notify-relay: the Notify relay server/);
    assert.match(help.stdout, /--tls-cert FILE/);
    assert.match(help.stdout, /--trust-proxy/);
    assert.equal(run(['--version']).stdout, `notify-relay ${PACKAGE.version}\n`);
  });

  it('refuses bad options with exit code 2, the reason and where to look', () => {
    const missing = run([]);
    assert.equal(missing.status, 2);
    assert.equal(
      missing.stderr,
      "--data FOLDER is required: the folder that holds relay.db.\nRun 'notify-relay --help' for the options.\n",
    );
    assert.equal(run(['--data', '/tmp/x', '--port', 'eighty']).status, 2);
  });

  it('keeps its data owner-only, prints the setup link only while no account exists, and stops cleanly', async () => {
    const first = await startRelay();
    let dataDir = first.dataDir;
    try {
      await setUpOperator(first);
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      assert.equal(statSync(join(dataDir, 'relay.db')).mode & 0o777, 0o600);
      assert.equal(await first.stop(), 0);
      const again = await startRelay({ dataDir });
      dataDir = again.dataDir;
      try {
        assert.match(again.output(), /listening on http:\/\/127\.0\.0\.1:\d+\n/);
        assert.doesNotMatch(again.output(), /Warning/, 'loopback needs no warning');
        assert.equal(again.setupUrl, undefined);
        assert.doesNotMatch(again.output(), /setup\?token=/);
        assert.equal(await again.stop(), 0);
      } finally {
        await again.cleanup();
      }
    } finally {
      await first.cleanup();
    }
  });

  it('warns once at start when it serves plain HTTP on an address other machines reach', async () => {
    const open = await startRelay({ args: ['--host', '0.0.0.0'] });
    try {
      // The warning goes to stderr, which may arrive after the URL on stdout.
      await waitFor(() => open.output().includes('unencrypted'), 'the warning');
      const warnings = open
        .output()
        .split('\n')
        .filter((line) => line.startsWith('Warning:'));
      assert.deepEqual(warnings, [
        'Warning: serving plain HTTP on 0.0.0.0, which other machines can reach: passwords, session cookies and installation credentials cross the network unencrypted. Serve HTTPS with --tls-cert and --tls-key, or listen on 127.0.0.1 behind an HTTPS reverse proxy.',
      ]);
    } finally {
      await open.cleanup();
    }
  });
});
