import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { platformDisplay } from '../../src/presentation/platform.js';
import { ProgramDisplay } from '../../src/presentation/program-display.js';
import type { ToastDisplayEvents } from '../../src/presentation/toast-display.js';
import type { ToastContent } from '../../src/presentation/toast-style.js';

const WSL2_KERNEL = '5.15.167.4-microsoft-standard-WSL2';
const INTEROP = { WSL_INTEROP: '/run/WSL/8_interop' };

const toast: ToastContent = {
  notificationId: 'n1',
  revision: 1,
  summary: 'Needs input',
  body: 'Which branch?\napi-box · claude-code',
  urgency: 1,
  icon: 'dialog-question',
  styleType: 'input_required',
  expireTimeoutMs: 0,
  critical: false,
  actionable: true,
  focusable: false,
  choices: [],
};

/** The texts of the script, which travel base64-encoded inside it. */
const encodedTexts = (script: string) =>
  [...script.matchAll(/FromBase64String\('([^']*)'\)/g)].map((m) =>
    Buffer.from(m[1]!, 'base64').toString('utf8'),
  );

describe('inside WSL, toasts show on Windows through powershell.exe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-wsl-'));
  const record = join(dir, 'calls.jsonl');
  const originalPath = process.env['PATH'];

  before(() => {
    const file = join(dir, 'powershell.exe');
    writeFileSync(
      file,
      `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    );
    chmodSync(file, 0o755);
    process.env['PATH'] = `${dir}${delimiter}${originalPath}`;
  });
  after(() => {
    process.env['PATH'] = originalPath;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a WSL kernel with interop: a Windows toast whose click opens the web page', async () => {
    const display = platformDisplay('linux', INTEROP, false, {
      kernelRelease: WSL2_KERNEL,
      pageUrl: 'http://localhost:47999/',
    });
    let name = '';
    const events: ToastDisplayEvents = {
      available: (shown) => (name = shown),
      unavailable: () => {},
      closed: () => {},
      action: () => {},
    };
    display.start(events);
    assert.equal(name, 'Windows toast notifications through WSL interop (powershell.exe)');
    await display.show(toast, 0);
    const call = JSON.parse(readFileSync(record, 'utf8').trim().split('\n').at(-1)!) as string[];
    assert.deepEqual(call.slice(0, 5), [
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    const script = Buffer.from(call[5]!, 'base64').toString('utf16le');
    assert.match(script, /SetAttribute\("activationType", "protocol"\)/);
    assert.deepEqual(encodedTexts(script), [
      'http://localhost:47999/',
      'Needs input',
      'Which branch?',
      'api-box · claude-code',
    ]);
  });

  it('WSL 1 kernels count too; without WSL_INTEROP or on another kernel it stays the D-Bus display', () => {
    const name = (release: string, env: NodeJS.ProcessEnv) => {
      let shown = '';
      const display = platformDisplay('linux', env, false, {
        kernelRelease: release,
        pageUrl: 'http://localhost:1/',
      });
      if (!(display instanceof ProgramDisplay)) return 'dbus';
      display.start({
        available: (n) => (shown = n),
        unavailable: () => {},
        closed: () => {},
        action: () => {},
      });
      return shown;
    };
    assert.match(name('4.4.0-19041-Microsoft', INTEROP), /WSL interop/);
    assert.equal(name(WSL2_KERNEL, {}), 'dbus');
    assert.equal(name('6.1.0-27-amd64', INTEROP), 'dbus');
  });
});
