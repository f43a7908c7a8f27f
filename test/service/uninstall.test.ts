import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startBroker, type TempHome } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

/** A stand-in `systemctl` that answers like a user manager, so no test touches the real one. */
function withSystemctl(home: TempHome): NodeJS.ProcessEnv {
  const bin = join(home.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'systemctl'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'systemctl'), 0o755);
  return { ...home.env, PATH: `${bin}:${process.env['PATH']}` };
}

/** A person who ran Notify with hooks and the service, then uninstalls it. */
describe('notifyctl uninstall', () => {
  let home: TempHome;
  let env: NodeJS.ProcessEnv;
  const claudeSettings = () => join(home.home, '.claude', 'settings.json');
  const unitFile = () => join(home.home, '.config', 'systemd', 'user', 'notifyd.service');
  beforeEach(async () => {
    const broker = await startBroker();
    await broker.stop();
    home = broker.home;
    env = withSystemctl(home);
    for (const args of [
      ['hooks', 'install', 'claude'],
      ['service', 'install'],
    ]) {
      const result = await runNotifyctl(args, { env });
      assert.equal(result.code, 0, result.stderr);
    }
  });
  afterEach(() => home.cleanup());

  it('removes the hooks and the service, keeps the data and says where it is', async () => {
    const result = await runNotifyctl(['uninstall'], { env });
    assert.equal(result.code, 0, result.stderr);
    // The settings file held only Notify's hooks, so it is gone with them.
    assert.equal(existsSync(claudeSettings()), false);
    assert.equal(existsSync(unitFile()), false);
    assert.ok(existsSync(home.configFile) && existsSync(home.databaseFile));
    assert.match(
      result.stdout,
      new RegExp(
        `Your data stays \\(config and token, database, secrets, logs\\):\\n  ${join(home.home, '.config', 'notify')}\\n  ${join(home.home, '.local', 'share', 'notify')}\\n`,
      ),
    );
    assert.match(
      result.stdout,
      /'notifyctl uninstall --all' removes it too\.\nThen remove the programs: 'npm uninstall -g agent-notify'\.\n$/,
    );
  });

  it('--all removes the data only after a yes', async () => {
    const declined = await runNotifyctl(['uninstall', '--all'], { env, stdin: 'n\n' });
    assert.equal(declined.code, 0, declined.stderr);
    assert.ok(existsSync(home.configFile) && existsSync(home.databaseFile), 'a no keeps the data');
    const confirmed = await runNotifyctl(['uninstall', '--all'], { env, stdin: 'y\n' });
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.match(confirmed.stderr, /^Delete .*notify.* for good\? \[y\/N\] $/);
    for (const folder of [
      join(home.home, '.config', 'notify'),
      join(home.home, '.local', 'share', 'notify'),
      join(home.home, '.local', 'state', 'notify'),
    ])
      assert.equal(existsSync(folder), false, `${folder} is gone`);
    assert.equal(existsSync(unitFile()), false);
  });
});
