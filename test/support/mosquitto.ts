import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { freePort } from './broker-process.js';
import { waitFor } from './wait-for.js';

/**
 * A real mosquitto (the Debian package) on a free loopback port with a temp config: anonymous, or
 * with a password file. stop() and start() restart it on the same port (retained messages are not
 * persisted, as with a broker that lost its state).
 */
export interface Mosquitto {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port after stop(). */
  start(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function startMosquitto(options: { users?: Record<string, string> } = {}): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-mosquitto-'));
  const port = await freePort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    'persistence false',
    // As root, mosquitto would switch to the mosquitto user, who cannot read this temp folder.
    `user ${userInfo().username}`,
    'log_dest stderr',
  ];
  if (options.users) {
    const passwords = join(dir, 'passwords');
    writeFileSync(passwords, '');
    for (const [user, password] of Object.entries(options.users)) {
      const made = spawnSync('mosquitto_passwd', ['-b', passwords, user, password], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
    }
    lines.push('allow_anonymous false', `password_file ${passwords}`);
  } else {
    lines.push('allow_anonymous true');
  }
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);

  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('mosquitto', ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    started.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child = started;
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`mosquitto exited: ${log}`);
      return (await canConnect(port, options.users)) || undefined;
    }, 'mosquitto listening');
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    stop,
    start,
    cleanup: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function canConnect(port: number, users?: Record<string, string>): Promise<boolean> {
  const [user, password] = Object.entries(users ?? {})[0] ?? [];
  try {
    const client = await connectAsync(
      `mqtt://127.0.0.1:${port}`,
      { reconnectPeriod: 0, connectTimeout: 2000, ...(user !== undefined && { username: user, password }) },
      false,
    );
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}

/** A test's own client: what a person's MQTT tool or Home Assistant sees and sends. */
export interface Watcher {
  client: MqttClient;
  /** The last message of each topic received so far ('' for a cleared retained message). */
  last: Map<string, string>;
  /** Waits for a topic's message to satisfy `check`. */
  next(topic: string, check: (payload: string) => boolean, what: string): Promise<string>;
  close(): Promise<void>;
}

export async function watch(
  mosquitto: Mosquitto,
  topics: string[],
  login: { username?: string; password?: string } = {},
): Promise<Watcher> {
  const client = await connectAsync(mosquitto.url, { reconnectPeriod: 0, ...login }, false);
  const last = new Map<string, string>();
  client.on('message', (topic, payload) => last.set(topic, payload.toString('utf8')));
  await client.subscribeAsync(topics, { qos: 1 });
  return {
    client,
    last,
    next: (topic, check, what) =>
      waitFor(() => {
        const payload = last.get(topic);
        return payload !== undefined && check(payload) ? payload : undefined;
      }, what),
    close: () => client.endAsync(),
  };
}

/** The retained message of a topic as a new subscriber gets it, or undefined when none is kept. */
export async function retained(mosquitto: Mosquitto, topic: string): Promise<string | undefined> {
  const client = await connectAsync(mosquitto.url, { reconnectPeriod: 0 }, false);
  try {
    const got = new Promise<string>((resolve) =>
      client.on('message', (_topic, payload, packet) => {
        if (packet.retain) resolve(payload.toString('utf8'));
      }),
    );
    await client.subscribeAsync(topic, { qos: 1 });
    // Retained messages follow the SUBACK at once; a round trip after it proves none came.
    const none = client.publishAsync(`notify-test/ping/${Date.now()}`, '', { qos: 1 }).then(() => undefined);
    return await Promise.race([got, none]);
  } finally {
    await client.endAsync();
  }
}
