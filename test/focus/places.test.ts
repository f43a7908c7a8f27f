import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { createStandInPlayers, type StandInPlayers } from '../support/stand-in-player.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { startXDesktop, type XDesktop } from '../support/x-desktop.js';
import { waitFor } from '../support/wait-for.js';
import type { NotificationDto } from '../../src/domain/notification.js';

const execFileAsync = promisify(execFile);

describe('focus of each kind of place, through the API and notifyctl', () => {
  let xd: XDesktop;
  let standIns: StandInPlayers;
  let broker: BrokerProcess;
  let xterm: number;
  let other: number;

  before(async () => {
    xd = await startXDesktop();
    // Recording stand-ins for the programs of terminals this machine does not have.
    standIns = createStandInPlayers(['kitten', 'wezterm', 'code', 'cursor', 'osascript']);
    const home = createTempHome();
    home.env['PATH'] = `${standIns.folder}:/usr/bin:/bin`;
    broker = await startBroker({ home });
    xterm = await xd.xterm('plain', ['sleep', '600']);
    other = await xd.xterm('other', ['sleep', '600']);
  });

  after(async () => {
    await broker?.stop();
    broker?.home.cleanup();
    await xd?.stop();
    standIns?.cleanup();
  });

  async function create(origin: unknown, extra: Record<string, unknown> = {}): Promise<NotificationDto> {
    const response = await broker.request('POST', '/v1/notifications', {
      title: 'Needs you',
      message: 'Approve the migration?',
      type: 'input_required',
      origin,
      ...extra,
    });
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()) as NotificationDto;
  }

  /** What the stand-ins were asked to focus; the quiet-while-looking checks (`ls`, `list-clients`) aside. */
  const focusCalls = () =>
    standIns.calls().filter((call) => !call.includes('ls') && !call.includes('list-clients'));

  async function focus(id: string): Promise<[number, unknown]> {
    const response = await broker.request('POST', `/v1/notifications/${id}/focus`);
    return [response.status, await response.json()];
  }

  it('X11: activates the xterm named by $WINDOWID through EWMH, as xprop -root _NET_ACTIVE_WINDOW shows', async () => {
    // Made active here, not taken from the start: a CI run found no window active by the time this ran.
    await xd.activate(other);
    const n = await create([{ kind: 'x11', window: xterm, display: xd.display }]);
    assert.deepEqual(await focus(n.id), [200, { focused: true, how: 'x11' }]);
    assert.equal(await xd.activeWindow(), xterm);
  });

  it('X11 without xdotool: Notify sends the _NET_ACTIVE_WINDOW client message itself', async () => {
    await xd.activate(other);
    // A broker whose PATH has no xdotool (nor anything else).
    const bare = await startBroker({ env: { PATH: join(xd.dir, 'empty-path') } });
    try {
      const response = await bare.request('POST', '/v1/notifications', {
        title: 'Needs you',
        message: 'Approve?',
        origin: [{ kind: 'x11', window: xterm, display: xd.display }],
      });
      const n = (await response.json()) as NotificationDto;
      const focused = await bare.request('POST', `/v1/notifications/${n.id}/focus`);
      assert.deepEqual([focused.status, await focused.json()], [200, { focused: true, how: 'x11' }]);
      await waitFor(async () => (await xd.activeWindow()) === xterm, 'the xterm to be active');
    } finally {
      await bare.stop();
      bare.home.cleanup();
    }
  });

  it('X11: a window that is gone is a 409 that says so', async () => {
    const n = await create([{ kind: 'x11', window: 0x7ffffff, display: xd.display }]);
    const [status, body] = await focus(n.id);
    assert.equal(status, 409);
    assert.match((body as { error: string }).error, /^the X11 window 0x7ffffff was not activated/);
  });

  it('kitty, WezTerm, VS Code, Cursor and iTerm2 get their commands as argument arrays', async () => {
    const kitty = await create([{ kind: 'kitty', window: 7, listenOn: 'unix:/tmp/kitty-sock' }]);
    assert.deepEqual(await focus(kitty.id), [200, { focused: true, how: 'kitty' }]);
    const wezterm = await create([{ kind: 'wezterm', pane: 12, socket: '/run/user/0/wezterm/sock' }]);
    assert.deepEqual(await focus(wezterm.id), [200, { focused: true, how: 'wezterm' }]);
    const folder = '/home/ada/my project; rm -rf ~';
    const code = await create([{ kind: 'vscode', editor: 'code', folder }]);
    assert.deepEqual(await focus(code.id), [200, { focused: true, how: 'vscode' }]);
    const cursor = await create([{ kind: 'vscode', editor: 'cursor', folder: '/srv/app' }]);
    assert.deepEqual(await focus(cursor.id), [200, { focused: true, how: 'vscode' }]);
    const calls = focusCalls();
    assert.deepEqual(calls.slice(0, 4), [
      ['kitten', '@', '--to', 'unix:/tmp/kitty-sock', 'focus-window', '--match', 'id:7'],
      ['wezterm', 'cli', 'activate-pane', '--pane-id', '12'],
      ['code', '--reuse-window', folder],
      ['cursor', '--reuse-window', '/srv/app'],
    ]);
    // The stand-in osascript prints nothing: the script found no such session.
    const iterm = await create([{ kind: 'iterm2', session: 'w0t1p0:5A3F2C1E-1111-2222-3333-444455556666' }]);
    assert.deepEqual(await focus(iterm.id), [
      409,
      { error: 'the iTerm2 session 5A3F2C1E-1111-2222-3333-444455556666 is gone' },
    ]);
    const osascript = focusCalls()[4]!;
    assert.equal(osascript[0], 'osascript');
    assert.equal(osascript.at(-1), '5A3F2C1E-1111-2222-3333-444455556666');
    assert.ok(osascript.includes('tell application "iTerm2"'));
  });

  it('notifyctl focus --key takes the person there and prints how', async () => {
    const n = await create([{ kind: 'kitty', window: 9 }], { key: 'build-42' });
    const result = await runNotifyctl(['focus', '--key', 'build-42'], { env: broker.home.env });
    assert.equal(result.stderr, '');
    assert.equal(result.stdout, `${n.id} focused (kitty)\n`);
    assert.equal(result.code, 0);
    assert.deepEqual(focusCalls().at(-1), ['kitten', '@', 'focus-window', '--match', 'id:9']);
  });

  it('places Notify cannot focus, and a notification without an origin, get a 409 with why', async () => {
    const screen = await create([
      { kind: 'tty', path: '/dev/pts/4' },
      { kind: 'screen', session: '4242.pts-4.host', window: 2 },
    ]);
    assert.deepEqual(await focus(screen.id), [
      409,
      { error: 'Notify cannot focus a bare terminal device, GNU screen' },
    ]);
    const bare = await create(undefined);
    assert.equal(bare.origin, undefined);
    assert.deepEqual(await focus(bare.id), [
      409,
      { error: 'this notification does not say where its agent runs (no origin)' },
    ]);
    const result = await runNotifyctl(['focus', bare.id], { env: broker.home.env });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /does not say where its agent runs/);
  });

  it('a tmux server that is gone is a 409: "the tmux server is gone"', async () => {
    const n = await create([{ kind: 'tmux', socket: join(xd.dir, 'no-such.sock'), pane: '%1' }]);
    assert.deepEqual(await focus(n.id), [409, { error: 'the tmux server is gone' }]);
  });

  it("a pane of another user's tmux server is refused, and that server is never asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-other-user-'));
    chmodSync(dir, 0o777);
    const socketDir = join(dir, 'tmux');
    mkdirSync(socketDir, { mode: 0o777 });
    chmodSync(socketDir, 0o777);
    const socket = join(socketDir, 'theirs.sock');
    // A real tmux server of user nobody (65534), as another person on this machine would run.
    await execFileAsync('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'tmux',
      '-S',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
    ]);
    try {
      const n = await create([{ kind: 'tmux', socket, pane: '%0' }]);
      assert.deepEqual(await focus(n.id), [
        409,
        { error: `the tmux server at ${socket} belongs to another user` },
      ]);
    } finally {
      await execFileAsync('setpriv', [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        'tmux',
        '-S',
        socket,
        'kill-server',
      ]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the origin field on the wire', () => {
  let broker: BrokerProcess;
  before(async () => (broker = await startBroker()));
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  const post = async (origin: unknown) => {
    const response = await broker.request('POST', '/v1/notifications', { title: 't', message: 'm', origin });
    return [response.status, await response.json()] as const;
  };

  it('is kept exactly, innermost first, returned by GET, and absent when not given', async () => {
    const origin = [
      { kind: 'tmux', socket: '/tmp/tmux-1000/default', pane: '%3' },
      { kind: 'kitty', window: 4, listenOn: 'unix:/tmp/kitty-1000' },
      { kind: 'x11', window: 62914570, display: ':0' },
    ];
    const [status, created] = await post(origin);
    assert.equal(status, 201);
    const got = await (
      await broker.request('GET', `/v1/notifications/${(created as NotificationDto).id}`)
    ).json();
    assert.deepEqual((got as NotificationDto).origin, origin);
    const [, bare] = await post(undefined);
    assert.equal(Object.hasOwn(bare as object, 'origin'), false);
  });

  for (const [origin, error] of [
    [[], 'origin must be a list of 1 to 8 places, innermost first'],
    [{ kind: 'tmux' }, 'origin must be a list of 1 to 8 places, innermost first'],
    [
      Array(9).fill({ kind: 'tty', path: '/dev/pts/1' }),
      'origin must be a list of 1 to 8 places, innermost first',
    ],
    [
      [{ kind: 'shell', command: 'rm -rf ~' }],
      'origin[0].kind must be one of tmux, screen, zellij, kitty, wezterm, x11, vscode, iterm2, windows-terminal, tty',
    ],
    [
      [{ kind: 'tmux', socket: 'relative.sock', pane: '%1' }],
      'origin[0].socket must be an absolute path of at most 1024 characters',
    ],
    [
      [{ kind: 'tmux', socket: '/tmp/s', pane: '1; rm -rf ~' }],
      'origin[0].pane must be a tmux pane id such as %3',
    ],
    [[{ kind: 'tmux', socket: '/tmp/s' }], 'origin[0].pane is required for tmux'],
    [
      [{ kind: 'kitty', window: 1, env: { SECRET: 'x' } }],
      'origin[0] has unknown field "env"; a kitty place has window, listenOn',
    ],
    [[{ kind: 'x11', window: -1 }], 'origin[0].window must be a non-negative integer below 2^32'],
    [[{ kind: 'vscode', editor: 'vim', folder: '/a' }], 'origin[0].editor must be code or cursor'],
    [[{ kind: 'tty', path: '/dev/pts/1' }, 'x'], 'origin[1] must be a JSON object'],
    [
      [{ kind: 'vscode', editor: 'code', folder: `/${'a'.repeat(1024)}` }],
      'origin[0].folder must be an absolute path of at most 1024 characters',
    ],
  ] as const) {
    it(`refuses ${JSON.stringify(origin).slice(0, 70)} with 400`, async () => {
      assert.deepEqual(await post(origin), [400, { error }]);
    });
  }

  it('an ARC event carries it in extensions.x-notify.origin, checked the same way', async () => {
    const event = (origin: unknown) => ({
      arc_version: '0.1',
      event_id: `e-${Math.random()}`,
      event_type: 'request.created',
      occurred_at: new Date().toISOString(),
      sender: { id: 'agent' },
      request: { kind: 'question', message: 'Which branch?' },
      extensions: { 'x-notify': { origin } },
    });
    const good = await broker.request('POST', '/v1/events', event([{ kind: 'wezterm', pane: 3 }]));
    assert.equal(good.status, 201);
    assert.deepEqual(((await good.json()) as NotificationDto).origin, [{ kind: 'wezterm', pane: 3 }]);
    const bad = await broker.request('POST', '/v1/events', event([{ kind: 'wezterm', pane: '3' }]));
    assert.deepEqual(
      [bad.status, await bad.json()],
      [400, { error: 'extensions.x-notify.origin[0].pane must be a non-negative integer below 2^32' }],
    );
  });
});
