/** notify-relay's run, in any process: the bin (main.ts) calls it with its own argv, streams and signals. */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { VERSION } from '../version.js';
import { parseRelayArgs, RELAY_USAGE } from './args.js';
import { clockFromEnvironment, systemTimers, type Timers } from './clock.js';
import type { RouteContext } from './http/context.js';
import { buildServer } from './http/server.js';
import { StreamQuota } from './http/stream-quota.js';
import { Hub } from './hub.js';
import { RateLimiter, shareOf } from './rate-limiter.js';
import { People } from './people.js';
import { Relay } from './relay.js';
import { hashSecret, newSecret } from './secrets.js';
import { SignInGuard } from './sign-in-guard.js';
import { RelayStore } from './store.js';
import { plainHttpWarning } from './plain-http-warning.js';
import { Push } from './push.js';
import { PushSender } from './push-sender.js';
import { vapidKeysOf } from './vapid-keys.js';
import { runMigrate } from './migrate-command.js';
import type { RelayIo } from './relay-io.js';
import { describeTarget, openDatabase } from './open-database.js';
import { PostgresDatabase } from './postgres-database.js';
import { startPostgresBus, type PostgresBus } from './postgres-bus.js';
import { SCHEMA_VERSION, schemaVersion } from './store-migrations.js';
import { runExport, runImport } from './transfer-command.js';
import { relayLog } from './relay-log.js';

const MINUTE = 60_000;
const PURGE_EVERY_MS = 10 * MINUTE;

/** What stops a serving relay: the process itself, or an emitter a test sends the same names to. */
export interface RelaySignals {
  once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

export interface RelayRun {
  argv: string[];
  env: NodeJS.ProcessEnv;
  io: RelayIo;
  signals: RelaySignals;
  /** The purge's and the drain's timers; a test gives its own to fire them when it chooses. */
  timers?: Timers;
}

/**
 * Runs notify-relay as its command line says: a command (help, migrate, export, import) to its end,
 * or the server until SIGTERM or SIGINT. Resolves to the exit code.
 */
export async function runRelay({ argv, env, io, signals, timers = systemTimers }: RelayRun): Promise<number> {
  const say = (text: string): boolean => io.stdout.write(`${text}\n`);
  const complain = (text: string): boolean => io.stderr.write(`${text}\n`);
  const parsed = parseRelayArgs(argv, env);
  if (parsed.kind === 'help') {
    say(RELAY_USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    say(`notify-relay ${VERSION}`);
    return 0;
  }
  if (parsed.kind === 'error') {
    complain(parsed.message);
    complain("Run 'notify-relay --help' for the options.");
    return 2;
  }
  if (parsed.kind === 'migrate') return runMigrate(parsed.target, parsed.check, io);
  if (parsed.kind === 'export') return runExport(parsed.target, io);
  if (parsed.kind === 'import') return runImport(parsed.target, io);
  const options = parsed.options;
  const target = options.database !== undefined ? { database: options.database } : { data: options.data };
  let tls: { cert: Buffer; key: Buffer } | undefined;
  try {
    if (options.tls)
      tls = { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) };
  } catch (error) {
    complain(`notify-relay cannot start: ${(error as Error).message}`);
    return 1;
  }
  // Listened for before the URL is printed: a stop sent the moment it appears is a clean stop too.
  const signalled = (): Promise<void> =>
    new Promise<void>((resolve) => {
      signals.once('SIGTERM', () => resolve());
      signals.once('SIGINT', () => resolve());
    });
  const stopRequested = signalled();
  /** The drain's time, or less when a second signal says not to wait. */
  const drained = (ms: number): Promise<void> => {
    let timer: unknown;
    const done = new Promise<void>((resolve) => (timer = timers.set(resolve, ms)));
    return Promise.race([done, signalled()]).finally(() => timers.clear(timer));
  };
  const clock = clockFromEnvironment(env);
  const log = relayLog(io, clock);
  let store: RelayStore;
  try {
    store = await RelayStore.open(openDatabase(target));
  } catch (error) {
    complain(`notify-relay cannot open its database ${describeTarget(target)}: ${(error as Error).message}`);
    return 1;
  }
  for (const names of await store.userNameCaseClashes()) {
    complain(
      `notify-relay: the accounts ${names.join(', ')} differ only in case; each signs in with its exact spelling. New user names are compared without case.`,
    );
  }
  const hub = new Hub();
  /** Each live stream's shut-down: it tells the client to come back in a second, to catch up from the database. */
  const streams = new Set<() => void>();
  const endStreams = (): void => {
    for (const end of [...streams]) end();
  };
  // Several processes on one PostgreSQL database hear each other's changes through it.
  let bus: PostgresBus | undefined;
  if (store.db instanceof PostgresDatabase) {
    try {
      // What was published while this process did not listen never reached its live streams: their
      // clients come back and read it from the database (Last-Event-ID, the inbox's fresh list).
      bus = await startPostgresBus(
        store.db,
        { deliver: (message) => hub.deliver(message), missed: endStreams },
        clock,
        log,
      );
    } catch (error) {
      complain(`notify-relay cannot LISTEN on its database: ${(error as Error).message}`);
      await store.close();
      return 1;
    }
    hub.useBus((message) => bus!.publish(message));
  }
  const relay = new Relay(store, hub, clock, options.name ?? `notify-relay on ${hostname()}`);
  const setupToken = (await relay.hasUsers()) ? undefined : newSecret('nru_');
  // Made at the first start and kept in relay.db: every browser subscribed with this public key.
  const vapid = await vapidKeysOf(store, clock());
  const contact =
    options.contact ?? (options.publicUrl?.startsWith('https://') ? options.publicUrl : undefined);
  if (contact === undefined)
    complain(
      'notify-relay: no --contact (mailto: or https:) for phone push; push services may refuse pushes from a relay that gives none.',
    );
  const pushSender = new PushSender(store, relay, hub, clock, {
    contact: contact ?? 'mailto:operator@notify-relay.invalid',
    keys: vapid,
    allowLoopback: options.allowLoopbackPush,
    log,
  });
  // Each process behind the balancer counts its share of every limit (docs/relay.md "Many people").
  const processes = options.processes;
  const context: RouteContext = {
    relay,
    people: new People(store, hub, clock),
    push: new Push(store, hub, clock, vapid.publicKey, options.allowLoopbackPush),
    hub,
    publicUrl: options.publicUrl,
    limits: {
      pairing: new RateLimiter(shareOf({ max: 10, windowMs: MINUTE }, processes), clock),
      poll: new RateLimiter(shareOf({ max: 60, windowMs: MINUTE }, processes), clock),
      delivery: new RateLimiter(shareOf({ max: options.deliveryRate, windowMs: MINUTE }, processes), clock),
      signIn: new SignInGuard(clock, processes),
      codeAttempts: new RateLimiter(shareOf({ max: 10, windowMs: 15 * MINUTE }, processes), clock),
    },
    setupTokenHash: setupToken && hashSecret(setupToken),
    keepAliveMs: 25_000,
    streams,
    ready: async () => (await schemaVersion(store.db)) === SCHEMA_VERSION,
    stopping: false,
    streamQuota: new StreamQuota(),
  };
  const app = buildServer(context, {
    trustProxy: options.trustProxy,
    requestTimeoutMs: options.requestTimeoutSeconds * 1000,
    ...(tls && { tls }),
    log,
  });
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    complain(`notify-relay cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
    await bus?.stop();
    await store.close();
    return 1;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url =
    options.publicUrl ??
    `${tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${port}`;
  const warning = plainHttpWarning(options.host, tls !== undefined);
  if (warning) complain(warning);
  say(`notify-relay ${VERSION} listening on ${url}`);
  if (setupToken) {
    say(
      `No account yet. Set up the operator account (this link works once): ${url}/setup?token=${setupToken}`,
    );
  }
  await relay.purge();
  pushSender.start();
  // Armed again as it fires, so the purges keep their pace whatever one of them takes.
  let purging: unknown;
  const schedulePurge = (): void => {
    purging = timers.set(() => {
      schedulePurge();
      // A purge that failed (the database away for a moment) is tried again at the next one.
      void relay.purge().catch((error: unknown) => log.error(`purge: ${(error as Error).message}`));
    }, PURGE_EVERY_MS);
  };
  schedulePurge();

  await stopRequested;
  // Out of the balancer first: /readyz answers 503 for --drain while everything else still serves,
  // so the balancer's health check moves people away before the port closes. Then live streams are
  // told to come back (to another process), and requests in flight finish before the server closes.
  context.stopping = true;
  if (options.drainSeconds > 0) await drained(options.drainSeconds * 1000);
  timers.clear(purging);
  endStreams();
  await pushSender.stop();
  await app.close();
  await bus?.stop();
  await store.close();
  return 0;
}
