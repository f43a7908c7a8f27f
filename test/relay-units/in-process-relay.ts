/**
 * The relay's real HTTP server built inside the test process, wired as `notify-relay` wires it
 * (src/relay-server/main.ts): a temp SQLite file, the relay's limits and a clock the test moves.
 * It listens on a free loopback port, so the browser stand-in of test/support/relay-web.ts drives it
 * as it drives the relay process; being in-process, Stryker's `tap` runner reaches the mutated code
 * (stryker.relay-pages.config.json) in seconds a mutant instead of a minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../../src/relay-server/http/context.js';
import { buildServer } from '../../src/relay-server/http/server.js';
import { StreamQuota } from '../../src/relay-server/http/stream-quota.js';
import { Hub } from '../../src/relay-server/hub.js';
import { openDatabase } from '../../src/relay-server/open-database.js';
import { People } from '../../src/relay-server/people.js';
import { Push } from '../../src/relay-server/push.js';
import { PushSender } from '../../src/relay-server/push-sender.js';
import { RateLimiter } from '../../src/relay-server/rate-limiter.js';
import { relayLog, type RelayLog } from '../../src/relay-server/relay-log.js';
import { Relay } from '../../src/relay-server/relay.js';
import { hashSecret, newSecret } from '../../src/relay-server/secrets.js';
import { SignInGuard } from '../../src/relay-server/sign-in-guard.js';
import { RelayStore } from '../../src/relay-server/store.js';
import { vapidKeysOf } from '../../src/relay-server/vapid-keys.js';
import { lineSink } from '../support/caught-output.js';
import type { RelayProcess } from '../support/relay-process.js';

const MINUTE = 60_000;

export interface InProcessRelay extends RelayProcess {
  context: RouteContext;
  app: FastifyInstance;
  /** The relay's store, for a test that takes it away under the running server. */
  store: RelayStore;
  /** The one-time operator setup link, as notify-relay prints it at its first start. */
  setupUrl: string;
  /** The relay's clock (moved by `advance`). */
  clock: () => number;
  /** The push sender running since the start (when push is on): a test may stop it as the relay would. */
  pushSender: PushSender | undefined;
  /** The relay's log, and every line written to it (info and errors, in order). */
  log: RelayLog;
  logged: string[];
}

export async function startInProcessRelay(
  options: {
    publicUrl?: string;
    deliveryRate?: number;
    /** Phone push on, as `--allow-loopback-push --contact <contact>` turns it on (push services on loopback). */
    pushContact?: string;
    /** As `--trust-proxy`: the relay sits behind the operator's own reverse proxy. */
    trustProxy?: boolean;
    /** As `--tls-cert`/`--tls-key`: the relay serves HTTPS itself. */
    tls?: { cert: Buffer; key: Buffer };
    /** As `--request-timeout` (in milliseconds here, so a test waits a fraction of a second). */
    requestTimeoutMs?: number;
    /** The clock stands still but for `advance`, so a test can name the times its code computes. */
    stillClock?: boolean;
  } = {},
): Promise<InProcessRelay> {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-unit-'));
  const dataDir = join(root, 'data');
  let offset = 0;
  const startedAt = Date.now();
  const clock = options.stillClock ? (): number => startedAt + offset : (): number => Date.now() + offset;
  const store = await RelayStore.open(openDatabase({ data: dataDir }));
  const hub = new Hub();
  const relay = new Relay(store, hub, clock, 'Test relay');
  const setupToken = newSecret('nru_');
  const logged: string[] = [];
  const log = relayLog({ stdout: lineSink(logged), stderr: lineSink(logged) }, clock);
  const vapid = await vapidKeysOf(store, clock());
  const context: RouteContext = {
    relay,
    people: new People(store, hub, clock),
    push: new Push(store, hub, clock, vapid.publicKey, options.pushContact !== undefined),
    hub,
    publicUrl: options.publicUrl,
    limits: {
      pairing: new RateLimiter({ max: 10, windowMs: MINUTE }, clock),
      poll: new RateLimiter({ max: 60, windowMs: MINUTE }, clock),
      delivery: new RateLimiter({ max: options.deliveryRate ?? 600, windowMs: MINUTE }, clock),
      signIn: new SignInGuard(clock),
      codeAttempts: new RateLimiter({ max: 10, windowMs: 15 * MINUTE }, clock),
    },
    setupTokenHash: hashSecret(setupToken),
    keepAliveMs: 25_000,
    streams: new Set(),
    ready: async () => true,
    stopping: false,
    streamQuota: new StreamQuota(),
  };
  const app = buildServer(context, {
    trustProxy: options.trustProxy ?? false,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    log,
    ...(options.tls && { tls: options.tls }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const pushSender =
    options.pushContact === undefined
      ? undefined
      : new PushSender(store, relay, hub, clock, {
          contact: options.pushContact,
          keys: vapid,
          allowLoopback: true,
          log,
        });
  pushSender?.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  let stopped: Promise<number | null> | undefined;
  const stop = (): Promise<number | null> => {
    stopped ??= (async () => {
      for (const end of [...context.streams]) end();
      await pushSender?.stop();
      await app.close();
      await store.close();
      return 0;
    })();
    return stopped;
  };
  return {
    context,
    app,
    store,
    url,
    port,
    pid: process.pid,
    setupUrl: `${url}/setup?token=${setupToken}`,
    clock,
    pushSender,
    log,
    logged,
    dataDir,
    output: () => '',
    advance(ms) {
      offset += ms;
    },
    stop,
    async cleanup() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
