import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { focusFinding } from './focus-finding.js';

describe("doctor's focus line", () => {
  const bin = mkdtempSync(join(tmpdir(), 'notify-focus-bin-'));
  for (const program of ['tmux', 'xprop']) {
    writeFileSync(join(bin, program), '#!/bin/sh\n');
    chmodSync(join(bin, program), 0o755);
  }
  after(() => rmSync(bin, { recursive: true, force: true }));

  it('names the places whose focus it can see on this desktop', () => {
    assert.deepEqual(focusFinding({ PATH: bin, DISPLAY: ':0' }), {
      name: 'focus',
      verdict: 'ok',
      text: 'sees focus for tmux panes (with `set -g focus-events on`), X11 windows on :0',
    });
  });

  it('says that Wayland hides focus, and warns when nothing can be seen', () => {
    assert.deepEqual(focusFinding({ PATH: join(bin, 'none'), WAYLAND_DISPLAY: 'wayland-0' }), {
      name: 'focus',
      verdict: 'warn',
      text: 'cannot see focus for any place here (no tmux, kitten, wezterm, or X11 with xprop); Wayland hides which window has focus, so native Wayland windows are never seen (X11 ones through XWayland are): toasts and sounds never wait',
    });
  });
});
