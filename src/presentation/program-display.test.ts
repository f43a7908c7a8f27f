import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { macosDisplay } from './macos-display.js';
import type { ToastDisplay, ToastDisplayEvents } from './toast-display.js';
import type { ToastContent } from './toast-style.js';
import { windowsDisplay } from './windows-display.js';

const sample: ToastContent = {
  notificationId: 'n1',
  revision: 1,
  summary: `Deploy "prod"? it's $HOME; rm -rf /`,
  body: 'Needs `approval` & <review>\nclaude · notify',
  urgency: 2,
  icon: 'dialog-question',
  styleType: 'input_required',
  expireTimeoutMs: 0,
  critical: true,
  actionable: true,
  focusable: false,
  choices: [],
};

/** Stand-ins on PATH for osascript and powershell.exe that record their arguments, one JSON array a line. */
describe('macOS and Windows toast adapters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-standins-'));
  const record = join(dir, 'calls.jsonl');
  const originalPath = process.env['PATH'];

  before(() => {
    for (const program of ['osascript', 'powershell.exe']) {
      const file = join(dir, program);
      writeFileSync(
        file,
        `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify([${JSON.stringify(program)}, ...process.argv.slice(2)]) + '\\n');\nif (process.env.STANDIN_FAIL) process.exit(3);\n`,
      );
      chmodSync(file, 0o755);
    }
    process.env['PATH'] = `${dir}${delimiter}${originalPath}`;
  });
  after(() => {
    process.env['PATH'] = originalPath;
    delete process.env['STANDIN_FAIL'];
    rmSync(dir, { recursive: true, force: true });
  });

  const lastCall = (): string[] => {
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    return JSON.parse(lines.at(-1)!) as string[];
  };

  function started(display: ToastDisplay) {
    const seen = { available: '', closed: [] as number[] };
    const events: ToastDisplayEvents = {
      available: (name) => (seen.available = name),
      unavailable: () => {},
      closed: (id) => seen.closed.push(id),
      action: () => {},
    };
    display.start(events);
    return seen;
  }

  it('runs osascript with the text as argv items, never inside the script', async () => {
    const display = macosDisplay();
    const seen = started(display);
    assert.equal(seen.available, 'macOS Notification Center (osascript)');
    const id = await display.show(sample, 0);
    assert.deepEqual(lastCall(), [
      'osascript',
      '-e',
      'on run argv',
      '-e',
      'display notification (item 2 of argv) with title (item 1 of argv) subtitle (item 3 of argv)',
      '-e',
      'end run',
      '--',
      `Deploy "prod"? it's $HOME; rm -rf /`,
      'Needs `approval` & <review>',
      'claude · notify',
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen.closed, [id], 'the slot frees once Notification Center has the toast');
  });

  it('runs powershell.exe with an encoded script whose texts are base64, so nothing in them is code', async () => {
    const display = windowsDisplay();
    started(display);
    await display.show(sample, 0);
    const call = lastCall();
    assert.deepEqual(call.slice(0, 6), [
      'powershell.exe',
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    assert.equal(call.length, 7);
    const script = Buffer.from(call[6]!, 'base64').toString('utf16le');
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    assert.ok(script.includes(`FromBase64String('${b64(sample.summary)}')`));
    assert.ok(script.includes(`FromBase64String('${b64('Needs `approval` & <review>')}')`));
    assert.ok(script.includes(`FromBase64String('${b64('claude · notify')}')`));
    assert.ok(!script.includes('rm -rf'), 'the raw title never appears in the script');
    assert.ok(script.includes('ToastNotificationManager'));
  });

  it('rejects a show whose program fails, naming the program', async () => {
    process.env['STANDIN_FAIL'] = '1';
    try {
      const display = macosDisplay();
      started(display);
      await assert.rejects(display.show(sample, 0), /^Error: osascript failed: /);
    } finally {
      delete process.env['STANDIN_FAIL'];
    }
  });
});
