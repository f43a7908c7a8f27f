import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';

export const NOTIFYD = fileURLToPath(new URL('../../src/cli/notifyd.js', import.meta.url));

/** A temp HOME with XDG folders inside it; nothing a test does touches the real user's files. */
export interface TempHome {
  home: string;
  env: NodeJS.ProcessEnv;
  configFile: string;
  logDir: string;
  databaseFile: string;
  cleanup(): void;
}

export function createTempHome(): TempHome {
  const home = mkdtempSync(join(tmpdir(), 'notify-test-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TZ: process.env['TZ'] ?? 'UTC',
  };
  return {
    home,
    env,
    configFile: join(home, '.config', 'notify', 'config.json'),
    logDir: join(home, '.local', 'state', 'notify', 'logs'),
    databaseFile: join(home, '.local', 'share', 'notify', 'notify.db'),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function writeConfig(home: TempHome, config: Record<string, unknown>): void {
  mkdirSync(join(home.home, '.config', 'notify'), { recursive: true });
  writeFileSync(home.configFile, JSON.stringify(config, null, 2));
}

/**
 * Replaces config.json under a running broker the way careful editors do (temp file + rename), so its
 * watcher never reads a half-written file.
 */
export function replaceConfigFile(home: TempHome, content: string | Record<string, unknown>): void {
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  writeFileSync(`${home.configFile}.next`, text);
  renameSync(`${home.configFile}.next`, home.configFile);
}

export function readConfigFile(home: TempHome): Record<string, unknown> {
  return JSON.parse(readFileSync(home.configFile, 'utf8')) as Record<string, unknown>;
}

export interface BrokerProcess {
  home: TempHome;
  port: number;
  token: string;
  baseUrl: string;
  child: ChildProcess;
  /** Authenticated fetch against the broker; `body` objects are sent as JSON. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait. */
  kill(): Promise<void>;
}

export interface StartOptions {
  config?: Record<string, unknown>;
  home?: TempHome;
  /** Listen on this port (a restart on the port clients already know) instead of a free one. */
  port?: number;
  /** Another entry point than notifyd (e.g. the broker with test provider kinds). */
  script?: string;
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
}

/** A broker's `request`: fetch with its owner token; `body` objects are sent as JSON. */
export function authorizedRequest(baseUrl: string, token: string): BrokerProcess['request'] {
  return (method, path, body, headers = {}) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
}

/** Starts the real notifyd on a free loopback port and waits until it listens. */
export async function startBroker(options: StartOptions = {}): Promise<BrokerProcess> {
  const home = options.home ?? createTempHome();
  const port = options.port ?? (await freePort());
  const existing = options.home ? safeRead(home) : {};
  writeConfig(home, { ...existing, rateLimitPerSecond: 100000, ...options.config, port });
  const child = spawn(process.execPath, [options.script ?? NOTIFYD], {
    env: { ...home.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stopWithThisProcess(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Notify listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      reject(new Error(`notifyd exited with ${code} before listening:\n${output}`)),
    );
  });
  const token = readConfigFile(home)['authToken'] as string;
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    home,
    port,
    token,
    baseUrl,
    child,
    request: authorizedRequest(baseUrl, token),
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Brokers still running when this test process exits are stopped with it: Stryker's tap runner ends a
 * test file at its first failure (forceBail), before any `after` hook could stop them.
 */
const running = new Set<ChildProcess>();

function stopWithThisProcess(child: ChildProcess): void {
  if (running.size === 0) process.once('exit', stopRunning);
  running.add(child);
  child.once('exit', () => {
    running.delete(child);
    if (running.size === 0) process.off('exit', stopRunning);
  });
}

function stopRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}

function safeRead(home: TempHome): Record<string, unknown> {
  try {
    return readConfigFile(home);
  } catch {
    return {};
  }
}

/** What a suite starts once and removes after its last test: a broker, in a process or in process. */
export interface SuiteBroker {
  stop(): Promise<unknown>;
  home: { cleanup(): void };
}

/**
 * One broker for the enclosing suite: started before its first test, stopped and its HOME removed after
 * the last. The returned object is filled in when the broker is up.
 */
export function useSuiteBroker<T extends SuiteBroker>(start: () => Promise<T>): T {
  const broker = {} as T;
  before(async () => {
    Object.assign(broker, await start());
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });
  return broker;
}

/** One notifyd process for the enclosing suite (useSuiteBroker). */
export function useBroker(options: StartOptions = {}): BrokerProcess {
  return useSuiteBroker(() => startBroker(options));
}
