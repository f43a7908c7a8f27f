import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createTempHome, freePort, type TempHome } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

const NOTIFYD = fileURLToPath(new URL('../../src/cli/notifyd.js', import.meta.url));

/**
 * A stand-in `systemctl` first on PATH: records each call and answers like a user manager (or like a
 * session without one), so no test touches the real user's systemd.
 */
function standInSystemctl(
  home: TempHome,
  managerAnswers: boolean,
): { calls: () => string[][]; env: NodeJS.ProcessEnv } {
  const bin = join(home.home, 'bin');
  const log = join(home.home, 'systemctl.log');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'systemctl'),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n` +
      (managerAnswers
        ? `case "$2" in is-active) echo active;; is-enabled) echo enabled;; esac\nexit 0\n`
        : `echo 'Failed to connect to bus: No medium found' >&2\nexit 1\n`),
  );
  chmodSync(join(bin, 'systemctl'), 0o755);
  return {
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((line) => line.split(' '))
        : [],
    env: { ...home.env, PATH: `${bin}:${process.env['PATH']}` },
  };
}

describe('notifyctl service on Linux (systemd user unit)', () => {
  let home: TempHome;
  beforeEach(() => (home = createTempHome()));
  afterEach(() => home.cleanup());
  const unitFile = () => join(home.home, '.config', 'systemd', 'user', 'notifyd.service');

  it('install writes a unit with this node and this checkout that systemd-analyze accepts, and enables it', async () => {
    const systemctl = standInSystemctl(home, true);
    const result = await runNotifyctl(['service', 'install'], { env: systemctl.env });
    assert.equal(result.code, 0, result.stderr);
    const unit = readFileSync(unitFile(), 'utf8');
    assert.match(unit, new RegExp(`^ExecStart=${process.execPath} ${NOTIFYD}$`, 'm'));
    assert.match(unit, /^Restart=on-failure$/m);
    assert.match(unit, /^WantedBy=default\.target$/m);
    const verify = spawnSync('systemd-analyze', ['verify', unitFile()], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stderr);
    assert.equal(verify.stderr.trim(), '');
    assert.deepEqual(systemctl.calls(), [
      ['--user', 'show-environment'],
      ['--user', 'daemon-reload'],
      ['--user', 'enable', '--now', 'notifyd.service'],
    ]);
    assert.equal(
      result.stdout,
      `Wrote ${unitFile()}.\nNotify now runs as a user service: it starts at login and restarts after a failure.\n`,
    );
  });

  it('with NOTIFY_PORT, install gives notifyd that port; doctor warns from a shell that reaches another port', async () => {
    const systemctl = standInSystemctl(home, true);
    const port = String(await freePort());
    const result = await runNotifyctl(['service', 'install'], {
      env: { ...systemctl.env, NOTIFY_PORT: port },
    });
    assert.equal(result.code, 0, result.stderr);
    const unit = readFileSync(unitFile(), 'utf8');
    assert.match(unit, new RegExp(`^ExecStart=${process.execPath} ${NOTIFYD} --port ${port}$`, 'm'));
    const verify = spawnSync('systemd-analyze', ['verify', unitFile()], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stderr);
    const elsewhere = await runNotifyctl(['doctor'], { env: systemctl.env });
    assert.match(
      elsewhere.stdout,
      new RegExp(
        `^warn {2}service {2}installed \\(.+\\) for port ${port}, but this shell reaches the broker on config\\.json's port; run 'notifyctl service install' where NOTIFY_PORT is the broker's port$`,
        'm',
      ),
    );
    const same = await runNotifyctl(['doctor'], { env: { ...systemctl.env, NOTIFY_PORT: port } });
    assert.match(same.stdout, /^ok {4}service {2}installed \(/m);
  });

  it('install again says the unit is up to date; status shows what the manager says', async () => {
    const systemctl = standInSystemctl(home, true);
    await runNotifyctl(['service', 'install'], { env: systemctl.env });
    const again = await runNotifyctl(['service', 'install'], { env: systemctl.env });
    assert.match(again.stdout, /is up to date\.\n/);
    const status = await runNotifyctl(['service', 'status'], { env: systemctl.env });
    assert.equal(
      status.stdout,
      `installed: ${unitFile()}\nstate: active, enabled (systemctl --user status notifyd.service)\n`,
    );
  });

  it('rewriting an older unit keeps its mode', async () => {
    const systemctl = standInSystemctl(home, true);
    mkdirSync(join(home.home, '.config', 'systemd', 'user'), { recursive: true });
    writeFileSync(unitFile(), '[Service]\nExecStart=/old/notifyd\n');
    chmodSync(unitFile(), 0o600);
    const result = await runNotifyctl(['service', 'install'], { env: systemctl.env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(unitFile(), 'utf8'), /^Restart=on-failure$/m);
    assert.equal(statSync(unitFile()).mode & 0o777, 0o600);
  });

  it('without a user manager, writes the unit and prints the exact commands to run', async () => {
    const systemctl = standInSystemctl(home, false);
    const result = await runNotifyctl(['service', 'install'], { env: systemctl.env });
    assert.equal(result.code, 0);
    assert.ok(existsSync(unitFile()));
    assert.equal(
      result.stdout,
      `Wrote ${unitFile()}.\nNo service manager answers in this session; run these in your login session:\n` +
        '  systemctl --user daemon-reload\n  systemctl --user enable --now notifyd.service\n',
    );
    assert.deepEqual(systemctl.calls(), [['--user', 'show-environment']]);
  });

  it('uninstall disables and removes exactly the unit; --dry-run changes nothing', async () => {
    const systemctl = standInSystemctl(home, true);
    await runNotifyctl(['service', 'install'], { env: systemctl.env });
    const dry = await runNotifyctl(['service', 'uninstall', '--dry-run'], { env: systemctl.env });
    assert.match(
      dry.stdout,
      /^Would run:\n {2}systemctl --user disable --now notifyd\.service\nthen remove /,
    );
    assert.ok(existsSync(unitFile()));
    const result = await runNotifyctl(['service', 'uninstall'], { env: systemctl.env });
    assert.equal(result.code, 0);
    assert.ok(!existsSync(unitFile()));
    assert.deepEqual(systemctl.calls().at(-1), ['--user', 'disable', '--now', 'notifyd.service']);
    const status = await runNotifyctl(['service', 'status'], { env: systemctl.env });
    assert.match(
      status.stdout,
      /^not installed \(.*notifyd\.service does not exist\); run 'notifyctl service install'\n$/,
    );
  });

  it('restart restarts the installed unit, so an upgrade runs the new files; without a unit it says how to get one', async () => {
    const systemctl = standInSystemctl(home, true);
    const none = await runNotifyctl(['service', 'restart'], { env: systemctl.env });
    assert.equal(none.code, 1);
    assert.match(
      none.stdout,
      /^Notify is not installed as a service \(.*\); run 'notifyctl service install'\.\n$/,
    );
    await runNotifyctl(['service', 'install'], { env: systemctl.env });
    const result = await runNotifyctl(['service', 'restart'], { env: systemctl.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'The service restarted: it runs the installed version now.\n');
    assert.deepEqual(systemctl.calls().at(-1), ['--user', 'restart', 'notifyd.service']);
  });

  it('install --dry-run shows the unit and the commands and writes nothing', async () => {
    const systemctl = standInSystemctl(home, true);
    const result = await runNotifyctl(['service', 'install', '--dry-run'], { env: systemctl.env });
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Would write .*notifyd\.service:\n\n\[Unit\]\n/);
    assert.ok(!existsSync(unitFile()));
    assert.deepEqual(systemctl.calls(), []);
  });

  it('refuses a wrong action with the usage line and exit 1', async () => {
    const result = await runNotifyctl(['service', 'start'], { env: home.env });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'Usage: notifyctl service install|uninstall|restart|status [--dry-run]\n');
  });
});

describe('notifyctl service install from paths with characters systemd reads specially', () => {
  let home: TempHome;
  let folder: string;
  beforeEach(() => {
    home = createTempHome();
    folder = mkdtempSync(join(tmpdir(), 'notify-service-paths-'));
  });
  afterEach(() => {
    home.cleanup();
    rmSync(folder, { recursive: true, force: true });
  });
  const unitFile = () => join(home.home, '.config', 'systemd', 'user', 'notifyd.service');
  /** An argument as systemd.syntax(7) reads it back: specifiers and variables doubled, then quoted. */
  const escaped = (path: string) =>
    path
      .replace(/[%$]/g, (character) => character + character)
      .replace(/[\\"]/g, (character) => `\\${character}`);
  /** This checkout seen through a link named `name`, so notifyctl's own paths carry it. */
  const checkoutAt = (name: string) => {
    const link = join(folder, name);
    symlinkSync(resolve(dirname(NOTIFYD), '..', '..', '..'), link);
    return link;
  };
  const install = (node: string, checkout: string, env: NodeJS.ProcessEnv) =>
    spawnSync(
      node,
      [
        '--preserve-symlinks',
        '--preserve-symlinks-main',
        join(checkout, 'dist', 'src', 'cli', 'notifyctl', 'main.js'),
        'service',
        'install',
      ],
      { env, encoding: 'utf8' },
    );

  it('escapes %, $ and quotes so systemd runs exactly these paths', () => {
    const systemctl = standInSystemctl(home, true);
    const nodeFolder = join(folder, 'we%h $HOME');
    mkdirSync(nodeFolder);
    const node = join(nodeFolder, 'node');
    linkSync(process.execPath, node);
    const checkout = checkoutAt('my "checkout" 100% $HOME');
    const result = install(node, checkout, systemctl.env);
    assert.equal(result.status, 0, result.stderr);
    const unit = readFileSync(unitFile(), 'utf8');
    assert.ok(
      unit.includes(
        `\nExecStart="${folder}/we%%h $HOME/node" "${escaped(checkout)}/dist/src/cli/notifyd.js"\n`,
      ),
      unit,
    );
    const verify = spawnSync('systemd-analyze', ['verify', unitFile()], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stderr);
    assert.equal(verify.stderr.trim(), '');
  });

  it('refuses a node whose path holds a quote, which systemd would not run', () => {
    const systemctl = standInSystemctl(home, true);
    const nodeFolder = join(folder, 'node "stable"');
    mkdirSync(nodeFolder);
    linkSync(process.execPath, join(nodeFolder, 'node'));
    const result = install(join(nodeFolder, 'node'), checkoutAt('notify'), systemctl.env);
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      `notifyctl service: the path of node holds a quote or a backslash, which systemd refuses in the program it runs: ${JSON.stringify(join(nodeFolder, 'node'))}. Install or link node at a path without one and run this again with that node.\n`,
    );
    assert.ok(!existsSync(unitFile()));
  });

  it('refuses a path with a newline, saying why, and writes nothing', () => {
    const systemctl = standInSystemctl(home, true);
    const checkout = checkoutAt('notify\nExecStartPre=true');
    const result = install(process.execPath, checkout, systemctl.env);
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      `notifyctl service: the path of this Notify checkout holds a control character (such as a newline), which a service definition cannot carry: ${JSON.stringify(join(checkout, 'dist', 'src', 'cli', 'notifyd.js'))}. Move it to a path without one and run this again.\n`,
    );
    assert.ok(!existsSync(unitFile()));
    assert.deepEqual(systemctl.calls(), []);
  });
});

describe('service definitions', () => {
  it('a launchd agent runs this node and notifyd at load, restarting only after a failure', async () => {
    const { launchdPlist } = await import('../../src/service/service-definition.js');
    const plist = launchdPlist(
      { node: '/usr/local/bin/node', notifyd: "/Users/me/notify & co's <x>/notifyd.js", docs: '' },
      '/tmp/log',
    );
    assert.match(
      plist,
      /<string>\/usr\/local\/bin\/node<\/string>\n\s*<string>\/Users\/me\/notify &amp; co&apos;s &lt;x&gt;\/notifyd\.js<\/string>/,
    );
    assert.match(plist, /<key>SuccessfulExit<\/key>\n\s*<false\/>/);
    if (existsSync('/usr/bin/xmllint')) execFileSync('xmllint', ['--noout', '-'], { input: plist });
  });

  it('a path with spaces stays one argument in the unit', async () => {
    const { systemdUnit } = await import('../../src/service/service-definition.js');
    const unit = systemdUnit({
      node: '/opt/my node/bin/node',
      notifyd: '/srv/notify/notifyd.js',
      docs: '/srv/d.md',
    });
    assert.match(unit, /^ExecStart="\/opt\/my node\/bin\/node" \/srv\/notify\/notifyd\.js$/m);
    const odd = systemdUnit({
      node: '/usr/bin/node',
      notifyd: '/srv/a\\b "c" 5%/n.js',
      docs: '/srv/my docs.md',
    });
    assert.match(odd, /^ExecStart=\/usr\/bin\/node "\/srv\/a\\\\b \\"c\\" 5%%\/n\.js"$/m);
    assert.match(odd, /^Documentation=file:\/\/\/srv\/my%%20docs\.md$/m);
  });
});
