import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { waitFor } from '../support/wait-for.js';
import { asPage, secretOf, startClockedBroker, visit } from '../support/web-session.js';

const LINK = /^http:\/\/127\.0\.0\.1:\d+\/login\?code=[A-Za-z0-9_-]{43}$/;
const LAUNCHER = /^file:\/\/\/.+\/open-[0-9a-f]{32}\.html$/;

/** The sign-in link a launcher file forwards to. */
const linkIn = (launcher: string) =>
  /content="0;url=([^"]+)"/.exec(readFileSync(fileURLToPath(launcher), 'utf8'))![1]!;

describe('notifyctl open', () => {
  const broker = useBroker();
  const scratch = mkdtempSync(join(tmpdir(), 'notify-browser-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** A $BROWSER program that writes down the arguments it was started with. */
  const recordingBrowser = (name: string, exitCode = 0) => {
    const script = join(scratch, name);
    writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > "${script}.args"\nexit ${exitCode}\n`);
    chmodSync(script, 0o755);
    return script;
  };
  /** PATH without xdg-open or open. */
  const emptyPath = mkdtempSync(join(tmpdir(), 'notify-no-opener-'));
  after(() => rmSync(emptyPath, { recursive: true, force: true }));

  it('--print prints a one-time link that signs in once', async () => {
    const result = await runNotifyctl(['open', '--print'], { env: broker.home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const url = result.stdout.trim();
    assert.match(url, LINK);
    assert.equal(new URL(url).port, String(broker.port));
    assert.equal((await visit(url)).status, 303);
    assert.equal((await visit(url)).status, 401);
  });

  it('opens a private launcher of the link with $BROWSER, whose sign-in then works', async () => {
    const browser = recordingBrowser('browser');
    const result = await runNotifyctl(['open'], { env: { ...broker.home.env, BROWSER: browser } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `Opened the Notify web page with ${browser}.\n`);
    const args = readFileSync(`${browser}.args`, 'utf8').trim().split('\n');
    assert.equal(args.length, 1);
    assert.match(args[0]!, LAUNCHER);
    // Without $XDG_RUNTIME_DIR, a private folder in Notify's state folder.
    const launcher = fileURLToPath(args[0]!);
    assert.equal(dirname(launcher), join(broker.home.env['XDG_STATE_HOME']!, 'notify', 'run'));
    const link = linkIn(args[0]!);
    assert.match(link, LINK);
    assert.ok(!result.stdout.includes(link), 'the link is not printed when a browser took it');
    const secret = secretOf(await visit(link));
    assert.equal((await asPage(broker, secret, 'GET', '/v1/web/session')).status, 200);
    assert.equal(existsSync(launcher), false, 'the launcher went with the use of its link');
    assert.equal((await visit(link)).status, 401);
  });

  it('places the link at %s, and goes on to the next $BROWSER entry when one fails', async () => {
    const failing = recordingBrowser('failing', 3);
    const placed = recordingBrowser('placed');
    const result = await runNotifyctl(['open'], {
      env: { ...broker.home.env, BROWSER: `/no/such/browser:${failing}:${placed} --new-tab %s --flag` },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `Opened the Notify web page with ${placed}.\n`);
    const args = readFileSync(`${placed}.args`, 'utf8').trim().split('\n');
    assert.equal(args[0], '--new-tab');
    assert.match(args[1]!, LAUNCHER);
    assert.match(linkIn(args[1]!), LINK);
    assert.equal(args[2], '--flag');
  });

  it('prints the link when no browser can be started', async () => {
    const result = await runNotifyctl(['open'], { env: { ...broker.home.env, PATH: emptyPath } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      'No browser could be started ($BROWSER is not set or failed, and so did xdg-open or open). ' +
        'Open this link within 60 seconds; it works once:\n',
    );
    assert.match(result.stdout.trim(), LINK);
    const code = new URL(result.stdout.trim()).searchParams.get('code')!;
    const name = `open-${createHash('sha256').update(code).digest('hex').slice(0, 32)}.html`;
    assert.equal(
      existsSync(join(broker.home.env['XDG_STATE_HOME']!, 'notify', 'run', name)),
      false,
      'no launcher is left for a link nobody opened',
    );
    assert.equal((await visit(result.stdout.trim())).status, 303);
  });

  it('prints the link instead when the launcher folder is not private', async () => {
    const runtime = mkdtempSync(join(tmpdir(), 'notify-runtime-'));
    after(() => rmSync(runtime, { recursive: true, force: true }));
    const elsewhere = mkdtempSync(join(tmpdir(), 'notify-elsewhere-'));
    after(() => rmSync(elsewhere, { recursive: true, force: true }));
    symlinkSync(elsewhere, join(runtime, 'notify'));
    const browser = recordingBrowser('not-started');
    const result = await runNotifyctl(['open'], {
      env: { ...broker.home.env, XDG_RUNTIME_DIR: runtime, BROWSER: browser },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      `The link was not handed to a browser: ${join(runtime, 'notify')} is not a folder (a symbolic link or a file), ` +
        'so it was not used. Open this link within 60 seconds; it works once:\n',
    );
    assert.match(result.stdout.trim(), LINK);
    assert.equal(existsSync(`${browser}.args`), false);
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  it('says what went wrong without a token the broker takes', async () => {
    const result = await runNotifyctl(['open', '--print', '--token', 'not-the-token-at-all'], {
      env: broker.home.env,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^Error 401 Unauthorized: unauthorized/);
    assert.equal(result.stdout, '');
  });

  it('refuses arguments it does not know', async () => {
    const result = await runNotifyctl(['open', 'now'], { env: broker.home.env });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "notifyctl open: unexpected argument 'now'. Run 'notifyctl open --help'.\n");
  });
});

describe('a launcher nobody opened', () => {
  it('is removed by the broker once its code has expired', async () => {
    const broker = await startClockedBroker();
    after(async () => {
      await broker.stop();
      broker.home.cleanup();
    });
    const browser = join(broker.home.home, 'browser');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > "${browser}.url"\n`);
    chmodSync(browser, 0o755);
    const opened = await runNotifyctl(['open'], { env: { ...broker.home.env, BROWSER: browser } });
    assert.equal(opened.code, 0, opened.stderr);
    const launcher = fileURLToPath(readFileSync(`${browser}.url`, 'utf8'));
    assert.equal(existsSync(launcher), true);
    broker.advance(61_000);
    // The broker looks for expired codes whenever it makes a new one.
    assert.equal((await runNotifyctl(['open', '--print'], { env: broker.home.env })).code, 0);
    assert.equal(existsSync(launcher), false);
  });
});

describe('notifyctl sessions', () => {
  const broker = useBroker();
  const run = (...args: string[]) => runNotifyctl(['sessions', ...args], { env: broker.home.env });
  const FIREFOX_ON_MAC =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0';
  const signIn = async (userAgent?: string) => {
    const url = (await runNotifyctl(['open', '--print'], { env: broker.home.env })).stdout.trim();
    return secretOf(await visit(url, userAgent));
  };

  it('lists, revokes one and revokes all', async () => {
    assert.equal((await run()).stdout, '(no sessions)\n');
    const first = await signIn();
    const second = await signIn(FIREFOX_ON_MAC);
    const listed = await run('list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const { sessions } = JSON.parse(listed.stdout) as {
      sessions: { id: string; current: boolean; userAgent: string }[];
    };
    assert.equal(sessions.length, 2);
    assert.ok(sessions.every((session) => !session.current));
    assert.deepEqual(
      sessions.map((session) => session.userAgent),
      [FIREFOX_ON_MAC, 'node'],
      '--json keeps the User-Agent as sent, newest first',
    );
    const text = (await run()).stdout.trim().split('\n');
    assert.equal(text.length, 2);
    const line = (id: string, browser: string) =>
      new RegExp(`^${id} ${browser}: signed in \\S+, last used \\S+, ends \\S+$`);
    assert.match(text[0]!, line(sessions[0]!.id, 'Firefox on macOS'));
    assert.match(text[1]!, line(sessions[1]!.id, 'node'));

    const revoked = await run('revoke', sessions[1]!.id);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, `Session ${sessions[1]!.id} revoked.\n`);
    const firstWorks = (await asPage(broker, first, 'GET', '/v1/health')).status;
    const secondWorks = (await asPage(broker, second, 'GET', '/v1/health')).status;
    assert.deepEqual([firstWorks, secondWorks].sort(), [200, 401]);

    const missing = await run('revoke', sessions[1]!.id);
    assert.equal(missing.code, 3);
    assert.equal(missing.stderr, 'Error 404 Not Found: session not found\n');

    const all = await run('revoke', '--all');
    assert.equal(all.stdout, 'Revoked 1 session(s).\n');
    await waitFor(async () => (await asPage(broker, first, 'GET', '/v1/health')).status === 401, 'the end');
    assert.equal((await run('list')).stdout, '(no sessions)\n');
  });

  it('revoke needs an id or --all, not both', async () => {
    for (const args of [['revoke'], ['revoke', 'a', '--all'], ['revoke', 'a', 'b']]) {
      const result = await run(...args);
      assert.equal(result.code, 1, args.join(' '));
      assert.equal(result.stderr, 'Usage: notifyctl sessions revoke <id> | --all [--json]\n');
    }
  });
});
