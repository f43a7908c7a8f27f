import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import {
  freePort,
  readConfigFile,
  replaceConfigFile,
  startBroker,
  useBroker,
  type TempHome,
} from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { codexHookHash } from '../../src/cli/notifyctl/hooks/codex-hook-trust.js';

/** No session bus, a stand-in player on PATH, and no systemd user manager: the same on every machine. */
function doctorEnv(home: TempHome, withPlayer: boolean, playerStatus = 0): NodeJS.ProcessEnv {
  const bin = join(home.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'systemctl'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(bin, 'systemctl'), 0o755);
  rmSync(join(bin, 'paplay'), { force: true });
  if (withPlayer) {
    writeFileSync(join(bin, 'paplay'), `#!/bin/sh\nexit ${playerStatus}\n`);
    chmodSync(join(bin, 'paplay'), 0o755);
  }
  const env: NodeJS.ProcessEnv = { ...home.env, PATH: bin };
  delete env['DBUS_SESSION_BUS_ADDRESS'];
  delete env['DISPLAY'];
  delete env['WAYLAND_DISPLAY'];
  return env;
}

describe('notifyctl doctor', () => {
  const broker = useBroker();

  it('all good: ok lines for config, broker and token, warnings with what to do, exit 0', async () => {
    const result = await runNotifyctl(['doctor'], { env: doctorEnv(broker.home, true) });
    assert.equal(result.code, 0, result.stdout);
    const lines = result.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.slice(0, 15)),
      [
        'ok    config   ',
        'ok    broker   ',
        'ok    token    ',
        'warn  toasts   ',
        'warn  tray     ',
        'warn  sounds   ',
        'warn  hooks    ',
        'warn  focus    ',
        'warn  service  ',
      ],
    );
    assert.match(
      lines[1]!,
      new RegExp(`Notify \\d+\\.\\d+\\.\\d+ answers at http://127\\.0\\.0\\.1:${broker.port}$`),
    );
    // The broker's own view: it was started without a session bus.
    assert.match(lines[3]!, /toasts {3}no session D-Bus \(DBUS_SESSION_BUS_ADDRESS is not set\)$/);
    assert.match(lines[5]!, /sounds {3}no session D-Bus \(DBUS_SESSION_BUS_ADDRESS is not set\)$/);
    assert.match(
      lines[6]!,
      /no agent runs Notify's hooks; 'notifyctl hooks install claude' \(or codex, gemini\)/,
    );
    assert.match(lines[7]!, /cannot see focus for any place here .*: toasts and sounds never wait$/);
    assert.match(lines[8]!, /not installed; 'notifyctl service install' starts Notify at login$/);
  });

  it('warns when the sound player is installed but cannot play, with its exit status', async () => {
    // A token the broker refuses: it cannot be asked, so this shell's player is tried instead.
    const env = { ...doctorEnv(broker.home, true, 1), NOTIFY_TOKEN: 'not-the-token-at-all' };
    const result = await runNotifyctl(['doctor'], { env });
    assert.match(
      result.stdout,
      /^warn {2}sound {4}paplay exited with status 1, so sounds do not play; is a sound server \(PipeWire or PulseAudio\) running in this session\?$/m,
    );
  });

  it('a wrong token fails the token line with what to do, exit 1', async () => {
    const env = { ...doctorEnv(broker.home, false), NOTIFY_TOKEN: 'not-the-token-at-all' };
    const result = await runNotifyctl(['doctor'], { env });
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /^fail {2}token {4}the broker refuses the token; unset NOTIFY_TOKEN or --token, or compare with 'notify token'$/m,
    );
    // The broker could not be asked, so this shell's session is checked instead.
    assert.match(result.stdout, /^warn {2}desktop {2}no session bus/m);
    assert.match(result.stdout, /^warn {2}sound {4}no sound player found/m);
  });
});

/** The hook bundle the hooks install writes into the agents' settings (dist/notify-hook.cjs). */
const HOOK_BUNDLE = fileURLToPath(new URL('../../notify-hook.cjs', import.meta.url));

describe('notifyctl doctor and the agent hooks', () => {
  const broker = useBroker();

  it('says for which agent tools the hooks are installed', async () => {
    const env = doctorEnv(broker.home, true);
    const install = await runNotifyctl(['hooks', 'install', 'claude'], { env: broker.home.env });
    assert.equal(install.code, 0, install.stderr);
    const result = await runNotifyctl(['doctor'], { env });
    assert.match(result.stdout, /^ok {4}hooks {4}installed for claude$/m);
  });

  it('says when an installed hook runs a file that no longer exists (an uninstalled or moved version)', async () => {
    const env = doctorEnv(broker.home, true);
    const install = await runNotifyctl(['hooks', 'install', 'claude'], { env: broker.home.env });
    assert.equal(install.code, 0, install.stderr);
    const settings = join(broker.home.home, '.claude', 'settings.json');
    const gone = join(broker.home.home, 'old-version', 'dist', 'notify-hook.cjs');
    writeFileSync(settings, readFileSync(settings, 'utf8').replaceAll(HOOK_BUNDLE, gone));
    const result = await runNotifyctl(['doctor'], { env });
    assert.match(
      result.stdout,
      new RegExp(
        `^warn {2}hooks {4}claude: installed from a path that no longer exists \\(${gone}\\); run 'notifyctl hooks install claude' to update$`,
        'm',
      ),
    );
  });
});

describe('a broker moved with NOTIFY_PORT: the hooks are told its port', () => {
  const broker = useBroker();

  it('hooks install writes the port into the command, which reaches the broker without NOTIFY_PORT; doctor sees a shell on another port', async () => {
    const moved = { ...broker.home.env, NOTIFY_PORT: String(broker.port) };
    const config = readConfigFile(broker.home);
    // config.json names another port, so only the port written into the command reaches this broker.
    replaceConfigFile(broker.home, { ...config, port: await freePort() });
    try {
      const install = await runNotifyctl(['hooks', 'install', 'claude'], { env: moved });
      assert.equal(install.code, 0, install.stderr);
      const settings = JSON.parse(
        readFileSync(join(broker.home.home, '.claude', 'settings.json'), 'utf8'),
      ) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      };
      const command = settings.hooks['Notification']![0]!.hooks[0]!.command;
      assert.match(command, new RegExp(`env NOTIFY_PORT=${broker.port} `));
      const run = spawnSync('sh', ['-c', command], {
        input: JSON.stringify({
          session_id: 'moved',
          hook_event_name: 'Notification',
          message: 'Claude needs your permission to use Bash',
          notification_type: 'permission_prompt',
          cwd: '/tmp',
          transcript_path: '/tmp/t.jsonl',
        }),
        env: broker.home.env,
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const active = (await (await broker.request('GET', '/v1/notifications?status=active')).json()) as {
        key?: string;
      }[];
      assert.ok(
        active.some((notification) => notification.key === 'claude-code:moved'),
        'the hook reached the broker on its port',
      );
      const elsewhere = await runNotifyctl(['doctor'], { env: doctorEnv(broker.home, true) });
      assert.match(
        elsewhere.stdout,
        new RegExp(
          `^warn {2}hooks {4}claude: installed for port ${broker.port}, but this shell reaches the broker on config\\.json's port; run 'notifyctl hooks install claude' where NOTIFY_PORT is the broker's port$`,
          'm',
        ),
      );
      const same = await runNotifyctl(['doctor'], {
        env: { ...doctorEnv(broker.home, true), ...moved, PATH: doctorEnv(broker.home, true)['PATH'] },
      });
      assert.match(same.stdout, /^ok {4}hooks {4}installed for claude$/m);
    } finally {
      replaceConfigFile(broker.home, config);
    }
  });
});

describe('notifyctl doctor and the Codex hooks it would skip', () => {
  const broker = useBroker();

  it('warns while Codex does not trust the installed entries, says how to trust them, and is content once trusted', async () => {
    const env = { ...doctorEnv(broker.home, true), CODEX_HOME: join(broker.home.home, 'codex-home') };
    const install = await runNotifyctl(['hooks', 'install', 'codex'], { env });
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stdout,
      /^Now: Codex skips them \(not trusted yet: PermissionRequest, Stop, UserPromptSubmit, PostToolUse, Interrupt, SessionStart, SessionEnd\); start codex and choose "Trust all and continue" at "Hooks need review" \(or trust them in \/hooks\)\.$/m,
    );
    let result = await runNotifyctl(['doctor'], { env });
    assert.match(
      result.stdout,
      /^warn {2}hooks {4}codex: installed \(7 events\); Codex skips them \(not trusted yet: PermissionRequest, Stop, UserPromptSubmit, PostToolUse, Interrupt, SessionStart, SessionEnd\); start codex and choose "Trust all and continue" at "Hooks need review" \(or trust them in \/hooks\)$/m,
    );
    trustAsCodexDoes(env['CODEX_HOME']!);
    result = await runNotifyctl(['doctor'], { env });
    assert.match(result.stdout, /^ok {4}hooks {4}installed for codex$/m);
    const longer = await runNotifyctl(['hooks', 'install', 'codex', '--answer-wait', '60'], { env });
    assert.match(
      longer.stdout,
      /^Now: Codex skips them \(changed since you trusted them: PermissionRequest\); /m,
    );
    result = await runNotifyctl(['doctor'], { env });
    assert.match(
      result.stdout,
      /^warn {2}hooks {4}codex: installed \(7 events\); Codex skips them \(changed since you trusted them: PermissionRequest\); start codex/m,
    );
  });
});

/**
 * What Codex 0.171.0 writes into its config.toml when the person chooses "Trust all and continue":
 * one `[hooks.state."<hooks.json>:<event>:<group>:<handler>"]` table per entry with its hash
 * (test/hooks/codex-trust.test.ts checks the hash against Codex's own record).
 */
function trustAsCodexDoes(codexHome: string): void {
  const hooksFile = join(codexHome, 'hooks.json');
  const hooks = (JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, Group[]> }).hooks;
  const tables = Object.entries(hooks).map(([event, groups]) => {
    const snake = event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    const hash = codexHookHash(event, groups[0]!, groups[0]!.hooks[0]!);
    return `[hooks.state."${hooksFile}:${snake}:0:0"]\ntrusted_hash = "${hash}"\n`;
  });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-5-codex"\n\n[tui]\nscreen_reader_detection_done = true\n\n[hooks.state]\n\n${tables.join('\n')}`,
  );
}

interface Group extends Record<string, unknown> {
  hooks: Record<string, unknown>[];
}

describe('notifyctl doctor with the broker down', () => {
  it('fails the broker line, says how to start it, and exits 1', async () => {
    const broker = await startBroker();
    await broker.stop();
    const result = await runNotifyctl(['doctor'], { env: doctorEnv(broker.home, true) });
    broker.home.cleanup();
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^ok {4}config {3}/m);
    assert.match(
      result.stdout,
      /^fail {2}broker {3}nothing answers at http:\/\/127\.0\.0\.1:\d+ \(.+\); start it with 'notifyd' or 'notifyctl service install'$/m,
    );
    assert.doesNotMatch(result.stdout, /^\w+\s+token /m, 'no token line without a broker to ask');
  });
});
