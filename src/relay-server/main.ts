#!/usr/bin/env node
/** `notify-relay`: the relay server of docs/relay.md, in the foreground. */
import '../cli/runtime/require-node-floor.js';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { VERSION } from '../version.js';
import { parseRelayArgs, RELAY_USAGE } from './args.js';
import { clockFromEnvironment } from './clock.js';
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
import { describeTarget, openDatabase } from './open-database.js';
import { PostgresDatabase } from './postgres-database.js';
import { startPostgresBus, type PostgresBus } from './postgres-bus.js';
import { SCHEMA_VERSION, schemaVersion } from './store-migrations.js';
import { runExport, runImport } from './transfer-command.js';

const MINUTE = 60_000;
const PURGE_EVERY_MS = 10 * MINUTE;

/** A purge that failed (the database away for a moment) is tried again at the next one. */
function logPurgeFailure(error: unknown): void {
  console.error(`${new Date().toISOString()} [ERROR] purge: ${(error as Error).message}`);
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseRelayArgs(argv, process.env);
  if (parsed.kind === 'help') {
    console.log(RELAY_USAGE);
    return 0;
  }
  if (parsed.kind === 'version') {
    console.log(`notify-relay ${VERSION}`);
    return 0;
  }
  if (parsed.kind === 'error') {
    console.error(parsed.message);
    console.error("Run 'notify-relay --help' for the options.");
    return 2;
  }
  if (parsed.kind === 'migrate') return runMigrate(parsed.target, parsed.check);
  if (parsed.kind === 'export') return runExport(parsed.target, process.stdout);
  if (parsed.kind === 'import') return runImport(parsed.target, process.stdin);
  const options = parsed.options;
  const target = options.database !== undefined ? { database: options.database } : { data: options.data };
  let tls: { cert: Buffer; key: Buffer } | undefined;
  try {
    if (options.tlsCert && options.tlsKey)
      tls = { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) };
  } catch (error) {
    console.error(`notify-relay cannot start: ${(error as Error).message}`);
    return 1;
  }
  // Listened for before the URL is printed: a stop sent the moment it appears is a clean stop too.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  const clock = clockFromEnvironment(process.env);
  let store: RelayStore;
  try {
    store = await RelayStore.open(openDatabase(target));
  } catch (error) {
    console.error(
      `notify-relay cannot open its database ${describeTarget(target)}: ${(error as Error).message}`,
    );
    return 1;
  }
  for (const names of await store.userNameCaseClashes()) {
    console.error(
      `notify-relay: the accounts ${names.join(', ')} differ only in case; each signs in with its exact spelling. New user names are compared without case.`,
    );
  }
  const hub = new Hub();
  // Several processes on one PostgreSQL database hear each other's changes through it.
  let bus: PostgresBus | undefined;
  if (store.db instanceof PostgresDatabase) {
    try {
      bus = await startPostgresBus(store.db, (message) => hub.deliver(message), clock);
    } catch (error) {
      console.error(`notify-relay cannot LISTEN on its database: ${(error as Error).message}`);
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
    console.warn(
      'notify-relay: no --contact (mailto: or https:) for phone push; push services may refuse pushes from a relay that gives none.',
    );
  const pushSender = new PushSender(store, relay, hub, clock, {
    contact: contact ?? 'mailto:operator@notify-relay.invalid',
    keys: vapid,
    allowLoopback: options.allowLoopbackPush,
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
    streams: new Set(),
    ready: async () => (await schemaVersion(store.db)) === SCHEMA_VERSION,
    stopping: false,
    streamQuota: new StreamQuota(),
  };
  const app = buildServer(context, {
    trustProxy: options.trustProxy,
    requestTimeoutMs: options.requestTimeoutSeconds * 1000,
    ...(tls && { tls }),
  });
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    console.error(
      `notify-relay cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`,
    );
    await bus?.stop();
    await store.close();
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url =
    options.publicUrl ??
    `${tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${port}`;
  const warning = plainHttpWarning(options.host, tls !== undefined);
  if (warning) console.warn(warning);
  console.log(`notify-relay ${VERSION} listening on ${url}`);
  if (setupToken) {
    console.log(
      `No account yet. Set up the operator account (this link works once): ${url}/setup?token=${setupToken}`,
    );
  }
  await relay.purge();
  pushSender.start();
  const purging = setInterval(() => void relay.purge().catch(logPurgeFailure), PURGE_EVERY_MS);
  purging.unref();

  await stopRequested;
  // Out of the balancer first; live streams are told to come back (to another process); requests in
  // flight finish before the server closes.
  context.stopping = true;
  clearInterval(purging);
  for (const end of [...context.streams]) end();
  await pushSender.stop();
  await app.close();
  await bus?.stop();
  await store.close();
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
