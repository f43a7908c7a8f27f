import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originFromEnv } from './origin-from-env.js';

describe('originFromEnv', () => {
  it('keeps every place it finds, innermost first: tty, multiplexer, terminal, X11 window', () => {
    const env = {
      TMUX: '/tmp/tmux-1000/default,4242,0',
      TMUX_PANE: '%3',
      KITTY_WINDOW_ID: '5',
      KITTY_LISTEN_ON: 'unix:/tmp/kitty-1000',
      WINDOWID: '62914570',
      DISPLAY: ':0',
      ANTHROPIC_API_KEY: 'sk-secret',
    };
    assert.deepEqual(originFromEnv(env, '/home/ada/api', '/dev/pts/7'), [
      { kind: 'tty', path: '/dev/pts/7' },
      { kind: 'tmux', socket: '/tmp/tmux-1000/default', pane: '%3' },
      { kind: 'kitty', window: 5, listenOn: 'unix:/tmp/kitty-1000' },
      { kind: 'x11', window: 62914570, display: ':0' },
    ]);
  });

  it('reads screen, zellij, WezTerm, iTerm2, Windows Terminal and VS Code / Cursor terminals', () => {
    assert.deepEqual(
      originFromEnv(
        {
          STY: '1234.pts-0.host',
          WINDOW: '2',
          ZELLIJ_SESSION_NAME: 'tender-lemur',
          ZELLIJ_PANE_ID: '1',
          WEZTERM_PANE: '12',
          WEZTERM_UNIX_SOCKET: '/run/user/1000/wezterm/sock',
          ITERM_SESSION_ID: 'w0t1p0:5A3F2C1E-1111-2222-3333-444455556666',
          TERM_PROGRAM: 'vscode',
          WT_SESSION: '0d6e4c8a-1b2c-4d3e-8f90-a1b2c3d4e5f6',
        },
        '/home/ada/api',
        undefined,
      ),
      [
        { kind: 'screen', session: '1234.pts-0.host', window: 2 },
        { kind: 'zellij', session: 'tender-lemur', pane: 1 },
        { kind: 'wezterm', pane: 12, socket: '/run/user/1000/wezterm/sock' },
        { kind: 'iterm2', session: 'w0t1p0:5A3F2C1E-1111-2222-3333-444455556666' },
        { kind: 'vscode', editor: 'code', folder: '/home/ada/api' },
        { kind: 'windows-terminal', session: '0d6e4c8a-1b2c-4d3e-8f90-a1b2c3d4e5f6' },
      ],
    );
    assert.deepEqual(
      originFromEnv({ TERM_PROGRAM: 'vscode', CURSOR_TRACE_ID: 'abc' }, '/srv/app', undefined),
      [{ kind: 'vscode', editor: 'cursor', folder: '/srv/app' }],
    );
  });

  it('leaves out values of the wrong shape, and is undefined when nothing is known', () => {
    assert.deepEqual(
      originFromEnv(
        { TMUX_PANE: '%1', TMUX: 'nonsense', KITTY_WINDOW_ID: 'x', WINDOWID: '12' },
        '/a',
        undefined,
      ),
      [{ kind: 'x11', window: 12 }],
    );
    assert.equal(originFromEnv({ PATH: '/usr/bin' }, '/a', undefined), undefined);
  });
});
