import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTempHome, freePort, readConfigFile, writeConfig } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { startNotificationServer } from '../support/notification-server.js';
import { runNotifyd } from '../support/notifyd-run.js';
import { startPrivateBus } from '../support/session-bus.js';
import { createStandInPlayers } from '../support/stand-in-player.js';
import { startWatcher } from '../support/status-notifier-watcher.js';

const BOUNDED = { timeout: 30_000 };

/** The banner's toasts, tray and sounds lines. */
function presentationLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^ {2}(toasts|tray|sounds):/.test(line));
}

type Call = (path: string, body?: unknown, method?: string) => Promise<unknown>;

/** notifyd in a fresh HOME with `env`, its banner read, then `check` with its token and port; always stopped. */
async function withNotifyd(
  env: NodeJS.ProcessEnv,
  config: Record<string, unknown>,
  check: (stdout: string, call: Call, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const home = createTempHome();
  const port = await freePort();
  writeConfig(home, { port, ...config });
  const fullEnv = { ...home.env, ...env };
  const notifyd = await runNotifyd([], fullEnv);
  try {
    assert.match(notifyd.stdout(), /Ctrl\+C stops it\.\n$/, notifyd.stderr());
    const token = readConfigFile(home)['authToken'] as string;
    const call: Call = async (path, body, method = body === undefined ? 'GET' : 'POST') =>
      (
        await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
      ).json();
    await check(notifyd.stdout(), call, fullEnv);
  } finally {
    assert.equal(await notifyd.stop(), 0);
    home.cleanup();
  }
}

describe('the start banner and doctor say whether toasts, the tray and sounds work, and why not', () => {
  it(
    'over SSH (no session bus): all three off, with the reason, in the banner, the API and doctor',
    BOUNDED,
    async () => {
      const players = createStandInPlayers(['paplay']);
      try {
        await withNotifyd({ PATH: players.folder }, {}, async (stdout, call, env) => {
          const reason = 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)';
          assert.deepEqual(presentationLines(stdout), [
            `  toasts:   off: ${reason}`,
            `  tray:     off: ${reason}`,
            `  sounds:   off: ${reason}`,
          ]);
          const off = { on: false, detail: reason };
          assert.deepEqual(await call('/v1/presentation'), { toasts: off, tray: off, sounds: off });
          const doctor = await runNotifyctl(['doctor'], { env });
          for (const part of ['toasts', 'tray', 'sounds'])
            assert.match(
              doctor.stdout,
              new RegExp(`^warn {2}${part} +${reason.replace(/[()]/g, '\\$&')}$`, 'm'),
            );
          assert.doesNotMatch(
            doctor.stdout,
            /^\w+ +(desktop|sound) /m,
            'the broker answered, so no local guesses',
          );
        });
      } finally {
        players.cleanup();
      }
    },
  );

  it('on a desktop: the notification server, the panel and the player are named', BOUNDED, async () => {
    const bus = await startPrivateBus();
    const server = await startNotificationServer(bus.address);
    const watcher = await startWatcher(bus.address);
    const players = createStandInPlayers(['paplay']);
    try {
      const env = { DBUS_SESSION_BUS_ADDRESS: bus.address, PATH: players.folder };
      await withNotifyd(env, {}, async (stdout, call, fullEnv) => {
        assert.deepEqual(presentationLines(stdout), [
          '  toasts:   on, shown by notify-test-server 1.0',
          "  tray:     on, in the panel's tray area (StatusNotifierItem)",
          '  sounds:   on, played through paplay',
        ]);
        assert.deepEqual(await call('/v1/presentation'), {
          toasts: { on: true, detail: 'shown by notify-test-server 1.0' },
          tray: { on: true, detail: "in the panel's tray area (StatusNotifierItem)" },
          sounds: { on: true, detail: 'played through paplay' },
        });
        const doctor = await runNotifyctl(['doctor'], { env: fullEnv });
        assert.match(doctor.stdout, /^ok {4}toasts {3}shown by notify-test-server 1\.0$/m);
        assert.match(doctor.stdout, /^ok {4}tray {5}in the panel's tray area/m);
        assert.match(doctor.stdout, /^ok {4}sounds {3}played through paplay$/m);
      });
    } finally {
      players.cleanup();
      watcher.stop();
      server.stop();
      await bus.stop();
    }
  });

  it(
    'a player that fails every play (no sound server) is reported as failing, until a sound plays',
    BOUNDED,
    async () => {
      const bus = await startPrivateBus();
      const server = await startNotificationServer(bus.address);
      const players = createStandInPlayers(['paplay'], 1);
      try {
        const env = { DBUS_SESSION_BUS_ADDRESS: bus.address, PATH: players.folder };
        await withNotifyd(env, {}, async (stdout, call, fullEnv) => {
          assert.equal(presentationLines(stdout)[2], '  sounds:   on, played through paplay');
          const created = (await call('/v1/notifications', { title: 'Build', message: 'done' })) as {
            id?: string;
          };
          assert.ok(created.id, JSON.stringify(created));
          await players.waitForCalls(1);
          const preview = await call('/v1/sounds/chime/preview', undefined, 'POST');
          assert.match(JSON.stringify(preview), /could not play/);
          const report = (await call('/v1/presentation')) as { sounds: { on: boolean; detail: string } };
          assert.equal(report.sounds.on, false);
          assert.match(
            report.sounds.detail,
            /^paplay failed 2 times since \d\d:\d\d \(it exited with status 1\); is a sound server \(PipeWire or PulseAudio\) running in this session\?$/,
          );
          const doctor = await runNotifyctl(['doctor'], { env: fullEnv });
          assert.match(
            doctor.stdout,
            /^warn {2}sounds {3}paplay failed 2 times since \d\d:\d\d \(it exited/m,
          );

          writeFileSync(join(players.folder, 'paplay'), '#!/bin/sh\nexit 0\n');
          assert.deepEqual(await call('/v1/sounds/chime/preview', undefined, 'POST'), {
            name: 'chime',
            player: 'paplay',
          });
          const again = (await call('/v1/presentation')) as { sounds: unknown };
          assert.deepEqual(again.sounds, { on: true, detail: 'played through paplay' });
        });
      } finally {
        players.cleanup();
        server.stop();
        await bus.stop();
      }
    },
  );

  it('a bare session bus, no player and sounds switched off: each reason of its own', BOUNDED, async () => {
    const bus = await startPrivateBus();
    const empty = createStandInPlayers([]);
    try {
      const env = { DBUS_SESSION_BUS_ADDRESS: bus.address, PATH: empty.folder };
      await withNotifyd(env, {}, async (stdout) => {
        assert.deepEqual(presentationLines(stdout), [
          '  toasts:   off: no notification server on the session D-Bus (org.freedesktop.Notifications)',
          '  tray:     off: no StatusNotifierWatcher on the session D-Bus (org.kde.StatusNotifierWatcher): no panel with a tray area',
          '  sounds:   off: no player for WAV found on PATH (looked for pw-play, paplay, aplay, ffplay)',
        ]);
      });
      const players = createStandInPlayers(['pw-play']);
      try {
        await withNotifyd({ ...env, PATH: players.folder }, { soundsEnabled: false }, async (stdout) => {
          assert.equal(presentationLines(stdout)[2], '  sounds:   off: soundsEnabled is false');
        });
      } finally {
        players.cleanup();
      }
    } finally {
      empty.cleanup();
      await bus.stop();
    }
  });
});
