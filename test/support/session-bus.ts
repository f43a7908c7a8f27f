import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private session bus of our own (dbus-daemon), so tests never touch the desktop's. Its config names
 * no service folders: nothing gets auto-started on it (Debian's dunst would be, on a stock session bus).
 */
export interface PrivateBus {
  address: string;
  /** Kills the daemon; everyone connected loses the bus. */
  stop(): Promise<void>;
}

const config = (
  listen: string,
) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>${listen}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

/** Starts dbus-daemon; with `socketPath` it listens there, so a test can start it again at the same address. */
export async function startPrivateBus(socketPath?: string): Promise<PrivateBus> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bus-'));
  const configFile = join(dir, 'bus.conf');
  writeFileSync(configFile, config(socketPath ? `unix:path=${socketPath}` : `unix:dir=${dir}`));
  const child: ChildProcess = spawn(
    'dbus-daemon',
    [`--config-file=${configFile}`, '--nofork', '--nopidfile', '--print-address=1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const address = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) resolve(line.trim());
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}: ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    address,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
