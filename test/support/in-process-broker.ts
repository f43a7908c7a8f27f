/**
 * The real broker (startBroker, the composition root notifyd runs) started inside the test process:
 * a temp HOME, a free loopback port, real SQLite, and a clock the test moves. Being in-process,
 * Stryker's `tap` runner reaches the mutated broker and transport code (stryker.broker-units.config.json)
 * in a second a mutant; test/support/broker-process.ts starts the notifyd process instead.
 */
import { startBroker as startInProcess, type RunningBroker } from '../../src/broker/broker.js';
import { resolvePaths } from '../../src/config/paths.js';
import {
  authorizedRequest,
  createTempHome,
  freePort,
  readConfigFile,
  useSuiteBroker,
  writeConfig,
  type BrokerProcess,
  type TempHome,
} from './broker-process.js';

export interface InProcessBroker extends Pick<
  BrokerProcess,
  'home' | 'port' | 'token' | 'baseUrl' | 'request'
> {
  running: RunningBroker;
  /** The broker's clock. */
  now(): number;
  /** Moves the broker's clock forward (and tells it, as a resumed laptop would). */
  advance(ms: number): void;
  stop(): Promise<void>;
}

export interface InProcessOptions {
  config?: Record<string, unknown>;
  home?: TempHome;
  /** The clock stands still but for `advance` (exact boundaries); by default it ticks with the wall clock. */
  frozenClock?: boolean;
}

export async function startInProcessBroker(options: InProcessOptions = {}): Promise<InProcessBroker> {
  const home = options.home ?? createTempHome();
  const port = await freePort();
  writeConfig(home, { rateLimitPerSecond: 100000, ...options.config, port });
  let offset = 0;
  const start = Date.now();
  const clock = options.frozenClock ? () => start + offset : () => Date.now() + offset;
  const running = await startInProcess({
    paths: resolvePaths(home.env),
    clock,
    browserEnv: { PATH: home.env['PATH'] },
  });
  const token = readConfigFile(home)['authToken'] as string;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    home,
    port,
    token,
    baseUrl,
    running,
    now: clock,
    request: authorizedRequest(baseUrl, token),
    advance(ms) {
      offset += ms;
      running.clockChanged();
    },
    stop: () => running.stop(),
  };
}

/** One in-process broker for the enclosing suite, filled in before its first test; removed after the last. */
export function useInProcessBroker(options: InProcessOptions = {}): InProcessBroker {
  return useSuiteBroker(() => startInProcessBroker(options));
}
