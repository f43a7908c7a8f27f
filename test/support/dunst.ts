import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Xvfb plus dunst on a private bus: a real notification daemon drawing real toasts on a virtual screen. */
export interface Dunst {
  display: string;
  /** Runs dunstctl against this dunst; resolves to its stdout. */
  ctl(...args: string[]): Promise<string>;
  /** Dumps the virtual screen in X Window Dump format (xwd, from x11-apps). */
  screenshot(file: string): Promise<void>;
  stop(): Promise<void>;
}

export interface DunstOptions {
  /** dunst's `markup` setting: full (the default here), strip or no. */
  markup?: 'full' | 'strip' | 'no';
  /** The program dunst runs for its context menu, in place of dmenu. */
  dmenu?: string;
}

const dunstrc = ({ markup = 'full', dmenu }: DunstOptions) => `[global]
    font = DejaVu Sans 11
    width = 420
    offset = 20x20
    origin = top-right
    frame_width = 2
    frame_color = "#5294e2"
    background = "#2b2e3b"
    foreground = "#ffffff"
    padding = 10
    horizontal_padding = 12
    markup = ${markup}
    format = "<b>%s</b>\\n%b"${dmenu ? `\n    dmenu = ${dmenu}` : ''}
[urgency_critical]
    frame_color = "#e25252"
`;

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

export async function startDunst(busAddress: string, options: DunstOptions = {}): Promise<Dunst> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-dunst-'));
  const config = join(dir, 'dunstrc');
  writeFileSync(config, dunstrc(options));
  // -displayfd 1: Xvfb picks a free display number and prints it once it accepts clients.
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '640x360x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let output = '';
    xvfb.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(`:${output.trim()}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  const env = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: busAddress };
  const dunst = spawn('dunst', ['-config', config], { env, stdio: 'ignore' });
  const ctl = async (...args: string[]) => (await run('dunstctl', args, { env })).stdout;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await ctl('count', 'displayed');
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    display,
    ctl,
    screenshot: async (file) => {
      await run('xwd', ['-root', '-silent', '-display', display, '-out', file]);
    },
    stop: async () => {
      dunst.kill('SIGTERM');
      await exitOf(dunst);
      xvfb.kill('SIGTERM');
      await exitOf(xvfb);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Share of the dump's pixel bytes that are not black: 0 for an empty screen. */
export function litShare(xwd: Buffer): number {
  const headerSize = xwd.readUInt32BE(0);
  const colors = xwd.readUInt32BE(76);
  const pixels = xwd.subarray(headerSize + colors * 12);
  let lit = 0;
  for (const byte of pixels) if (byte !== 0) lit++;
  return lit / Math.max(1, pixels.length);
}

/** A program dunst runs in place of dmenu for its context menu (`dunstctl context`). */
export interface DmenuStandIn {
  /** The program, for DunstOptions.dmenu. */
  path: string;
  /** The next menu picks the first entry that contains `text`. */
  choose(text: string): void;
  /** The menu dunst offered last. */
  menu(): string;
  cleanup(): void;
}

export function createDmenuStandIn(): DmenuStandIn {
  const dir = mkdtempSync(join(tmpdir(), 'notify-dmenu-'));
  const choice = join(dir, 'choice');
  const menu = join(dir, 'menu');
  const path = join(dir, 'dmenu');
  writeFileSync(path, `#!/bin/sh\ntee "${menu}" | grep -F -m1 -- "$(cat "${choice}")"\n`);
  chmodSync(path, 0o755);
  return {
    path,
    choose: (text) => writeFileSync(choice, text),
    menu: () => readFileSync(menu, 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
