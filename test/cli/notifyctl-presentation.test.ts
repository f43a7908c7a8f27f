import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_SOUNDS_DIR } from '../../src/presentation/sound-library.js';
import { createTempHome, readConfigFile, useBroker } from '../support/broker-process.js';
import { createStandInPlayers } from '../support/stand-in-player.js';
import { runNode } from '../support/run-node.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

const players = createStandInPlayers(['paplay']);
const home = createTempHome();
home.env['PATH'] = players.folder;
const doorBell = join(home.home, 'Door Bell.WAV');
copyFileSync(join(BUILTIN_SOUNDS_DIR, 'ping.wav'), doorBell);
const notes = join(home.home, 'notes.mp3');
writeFileSync(notes, 'not a sound at all\n');

const notifyctl = (...args: string[]) => runNode(NOTIFYCTL, args, { env: home.env });

/** One run of notifyctl, in order: arguments, exit code, exact stdout (or a pattern), exact stderr. */
type Step = [args: string[], code: number, stdout: string | RegExp, stderr: string];

const STEPS: Step[] = [
  [
    ['settings', 'show'],
    0,
    [
      'pauseNotifications                    false',
      'soundsEnabled                         true',
      'doNotDisturb                          false',
      'playCriticalSoundsDuringDoNotDisturb  true',
      'maxVisibleToasts                      5',
      'soundsByPriority.low                  none',
      'soundsByPriority.normal               chime',
      'soundsByPriority.high                 ping',
      'soundsByPriority.critical             alert',
      'quietHours                            off',
      'quietWhileFocused                     true',
      'focusGraceSeconds                     15',
      '',
    ].join('\n'),
    '',
  ],
  [
    ['settings', 'set', 'doNotDisturb=on', 'soundsByPriority.high=knock'],
    0,
    /doNotDisturb {26}true\n[^]*soundsByPriority.high {17}knock\n/,
    '',
  ],
  [
    ['settings', 'get', '--json'],
    0,
    `${JSON.stringify(
      {
        pauseNotifications: false,
        soundsEnabled: true,
        doNotDisturb: true,
        playCriticalSoundsDuringDoNotDisturb: true,
        maxVisibleToasts: 5,
        soundsByPriority: { low: 'none', normal: 'chime', high: 'knock', critical: 'alert' },
        quietHours: null,
        quietWhileFocused: true,
        focusGraceSeconds: 15,
      },
      null,
      2,
    )}\n`,
    '',
  ],
  [['settings', 'set', 'doNotDisturb=default'], 0, /doNotDisturb {26}false\n/, ''],
  [
    ['settings', 'set', 'maxVisibleToasts=50'],
    1,
    '',
    'Error 400 Bad Request: maxVisibleToasts 50 is out of range (1-20)\n',
  ],
  [['settings', 'set', 'doNotDisturb=maybe'], 1, '', 'doNotDisturb must be true or false (or default).\n'],
  [
    ['settings', 'set', 'quietHours=22:00-07:00,12:30-13:00'],
    0,
    /\nquietHours {28}22:00-07:00, 12:30-13:00; critical still alerts\n/,
    '',
  ],
  [
    [
      'settings',
      'set',
      'quietHours={"windows":[{"from":"23:00","to":"06:30","days":["fri","sat"]}],"minimumPriority":"high","timeZone":"Europe/Berlin"}',
    ],
    0,
    /\nquietHours {28}23:00-06:30 \(fri sat\) in Europe\/Berlin; high still alerts\n/,
    '',
  ],
  [
    ['settings', 'set', 'quietHours=22:00-25:00'],
    1,
    '',
    'Error 400 Bad Request: quietHours.windows[0].to must be a local time HH:MM from 00:00 to 23:59, such as "22:00"\n',
  ],
  [
    ['settings', 'set', 'quietHours=late'],
    1,
    '',
    'quietHours must be windows like 22:00-07:00 (several separated by commas), JSON, off, or default.\n',
  ],
  [['settings', 'set', 'quietHours=off'], 0, /\nquietHours {28}off\n/, ''],
  [
    ['settings', 'set', 'quietWhileFocused=off', 'focusGraceSeconds=40'],
    0,
    /\nquietWhileFocused {21}false\nfocusGraceSeconds {21}40\n$/,
    '',
  ],
  [
    ['settings', 'set', 'focusGraceSeconds=soon'],
    1,
    '',
    'focusGraceSeconds must be a whole number of seconds from 0 to 3600 (or default).\n',
  ],
  [
    ['settings', 'set', 'focusGraceSeconds=4000'],
    1,
    '',
    'Error 400 Bad Request: focusGraceSeconds 4000 is out of range (0-3600)\n',
  ],
  [
    ['settings', 'set', 'authToken=x'],
    1,
    '',
    "unknown setting 'authToken'; settings are pauseNotifications, soundsEnabled, doNotDisturb, playCriticalSoundsDuringDoNotDisturb, maxVisibleToasts, soundsByPriority.low, soundsByPriority.normal, soundsByPriority.high, soundsByPriority.critical, quietHours, quietWhileFocused, focusGraceSeconds.\n",
  ],
  [['settings', 'set'], 1, '', 'Usage: notifyctl settings set <setting>=<value> [<setting>=<value> ...]\n'],
  [
    ['settings', 'frob'],
    1,
    '',
    "notifyctl settings: unknown subcommand 'frob'. Run 'notifyctl settings --help'.\n",
  ],
  [
    ['settings', 'get', '--verbose'],
    1,
    '',
    "unknown option '--verbose' for settings get. Run 'notifyctl settings --help'.\n",
  ],
  [
    ['settings', '--help'],
    0,
    /^notifyctl settings: show or change the presentation settings\.\n\nUsage:\n {2}notifyctl settings show\n/,
    '',
  ],
  [
    ['settings', 'get', '--token', 'wrong'],
    2,
    '',
    `Error 401 Unauthorized: unauthorized\nHint: the token given with --token is not the broker's. 'notify token' prints the one in ${home.configFile}; leave --token out to use it.\n`,
  ],
  [
    ['types', 'set', 'Deploy-Prod', '--priority', 'HIGH', '--lifetime', '0', '--sound', 'knock'],
    0,
    'deploy_prod             custom    enabled   priority=high  lifetime=0s  sound=knock\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--icon', 'dialog-warning', '--lifetime', 'default'],
    0,
    'deploy_prod             custom    enabled   priority=high  icon=dialog-warning  sound=knock\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--needs-person', 'yes', '--resolve-after', '0'],
    0,
    'deploy_prod             custom    enabled   priority=high  icon=dialog-warning  sound=knock  needs-person=yes  resolve-after=0m\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--needs-person', 'default', '--resolve-after', 'default'],
    0,
    'deploy_prod             custom    enabled   priority=high  icon=dialog-warning  sound=knock\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--remind-every', '10', '--remind-times', '2'],
    0,
    'deploy_prod             custom    enabled   priority=high  icon=dialog-warning  sound=knock  remind-every=10m  remind-times=2\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--remind-every', 'default', '--remind-times', 'default'],
    0,
    'deploy_prod             custom    enabled   priority=high  icon=dialog-warning  sound=knock\n',
    '',
  ],
  [
    ['types', 'set', 'deploy_prod', '--remind-times', '2.5'],
    1,
    '',
    '--remind-times must be a whole number of reminders, 0 for none (or default).\n',
  ],
  [
    ['types', 'set', 'deploy_prod', '--needs-person', 'maybe'],
    1,
    '',
    '--needs-person must be yes or no (or default).\n',
  ],
  [
    ['types', 'set', 'deploy_prod', '--sound', 'trumpet'],
    1,
    '',
    'Error 400 Bad Request: unknown sound "trumpet" for types.deploy_prod.sound; use chime, ping, alert, knock, none or an imported sound (GET /v1/sounds lists them)\n',
  ],
  [
    ['types', 'set', 'deploy_prod', '--priority', 'urgent'],
    1,
    '',
    '--priority must be low, normal, high, or critical (or default).\n',
  ],
  [
    ['types', 'set', 'bad id!'],
    1,
    '',
    'the type must be a valid identifier containing letters, numbers, underscores, or hyphens (maximum 64 characters).\n',
  ],
  [
    ['types', 'list'],
    0,
    /^info {20}built-in {2}enabled\n[^]*blocked {17}built-in {2}enabled\ndeploy_prod {13}custom {4}enabled /,
    '',
  ],
  [['types', 'remove', 'deploy-prod'], 0, 'Removed type deploy_prod.\n', ''],
  [['types', 'remove', 'deploy_prod'], 3, '', 'Error 404 Not Found: type "deploy_prod" not found\n'],
  [['types', 'remove'], 1, '', 'Usage: notifyctl types remove <id>\n'],
  [['sounds', 'import', doorBell], 0, 'Imported sound "door-bell" (wav, 26504 bytes).\n', ''],
  [
    ['sounds', 'import', notes, '--name', 'notes'],
    1,
    '',
    `${notes}: the sound file is neither WAV (RIFF/WAVE) nor MP3 (ID3 tag or MPEG frame); convert it to .wav or .mp3 first.\n`,
  ],
  [
    ['sounds', 'import', join(home.home, 'missing.wav')],
    1,
    '',
    `cannot read ${join(home.home, 'missing.wav')}: no such file.\n`,
  ],
  [
    ['sounds', 'import', doorBell, '--name', 'chime'],
    1,
    '',
    'Error 400 Bad Request: "chime" is a built-in tone; choose another name for the imported sound\n',
  ],
  [
    ['sounds', 'list'],
    0,
    /^chime {19}built-in {2}wav {2}61\.8 kB\n[^]*door-bell {15}imported {2}wav {2}26\.5 kB\n$/,
    '',
  ],
  [['sounds', 'preview', 'door-bell'], 0, 'Playing "door-bell" with paplay.\n', ''],
  [['sounds', 'preview', 'nothing'], 3, '', 'Error 404 Not Found: sound "nothing" not found\n'],
  [
    ['sounds', 'remove', 'door-bell', '--json'],
    0,
    /^\{\n {2}"name": "door-bell",\n {2}"kind": "imported",/,
    '',
  ],
  [
    ['sounds', 'remove', 'knock'],
    1,
    '',
    'Error 400 Bad Request: "knock" is a built-in tone and cannot be removed\n',
  ],
];

describe('notifyctl settings, types and sounds against the real broker', () => {
  const broker = useBroker({ home });

  for (const [args, code, stdout, stderr] of STEPS) {
    it(`notifyctl ${args.map((arg) => (arg.startsWith('/') ? '<file>' : arg)).join(' ')} exits ${code}`, async () => {
      const result = await notifyctl(...args);
      assert.equal(result.stderr, stderr);
      if (typeof stdout === 'string') assert.equal(result.stdout, stdout);
      else assert.match(result.stdout, stdout);
      assert.equal(result.code, code);
    });
  }

  it('left config.json with the unknown fields and the token the broker wrote', () => {
    const file = readConfigFile(home);
    assert.equal(file['authToken'], broker.token);
    assert.deepEqual(file['types'], {});
    players.cleanup();
  });

  it('says the broker is unreachable with a hint when nothing listens', async () => {
    const result = await notifyctl('sounds', 'list', '--port', '1');
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^Could not reach Notify at http:\/\/127\.0\.0\.1:1: .+\nIs notifyd running\?\nHint: start the broker with 'notifyd' \(it runs in the foreground; keep that terminal open\), or let it start at login with 'notifyctl service install'; then try again\.\n$/,
    );
  });
});
