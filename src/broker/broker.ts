import type { FastifyInstance } from 'fastify';
import { loadOrCreateConfig } from '../config/config-file.js';
import type { NotifyPaths } from '../config/paths.js';
import { SettingsSource } from '../config/settings-source.js';
import { buildHttpServer } from '../http/server.js';
import { DailyFileLogger, type Logger } from '../log/logger.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { compileEnvelopeValidator } from '../domain/arc/envelope-validator.js';
import { EventService, readArcSchema } from './event-service.js';
import { VERSION } from '../version.js';
import { systemClock, type Clock } from './clock.js';
import { createIdGenerator } from './ids.js';
import { ChangeFeed } from './change-feed.js';
import { NotificationService } from './notification-service.js';
import { RetentionJob } from './retention.js';
import { createOutbound, type OutboundOptions } from './outbound.js';
import { PROVIDER_KINDS } from '../delivery/registry.js';

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface BrokerOptions {
  paths: NotifyPaths;
  clock?: Clock;
  /** Provider kinds and delivery tuning; the registry's kinds and the documented policy by default. */
  outbound?: Partial<OutboundOptions>;
}

export interface RunningBroker {
  port: number;
  settings: SettingsSource;
  log: Logger;
  stop(): Promise<void>;
}

/** Thrown when the port is taken; the message names the port and the config file to change. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/**
 * The composition root. Starts config → log → store → service → HTTP → background jobs, and stops
 * them in the reverse order so in-flight writes finish before the database closes.
 */
export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const { paths } = options;
  const clock = options.clock ?? systemClock;
  const config = loadOrCreateConfig(paths.configFile);
  const settings = new SettingsSource(paths.configFile, config.settings);
  const log = new DailyFileLogger(paths.logDir, () => [settings.current.authToken], clock);
  config.warnings.forEach((warning) => log.warn(`config: ${warning}`));

  // Compiled once, before anything is opened: a broken schema file stops the start with its error.
  const validateEnvelope = compileEnvelopeValidator(readArcSchema());
  const db: Db = openDatabase(paths.databaseFile);
  const store = new NotificationStore(db);
  const changes = new ChangeFeed((error) => log.error(`a change listener failed: ${(error as Error).name}`));
  const newId = createIdGenerator(clock);
  const outbound = createOutbound(db, paths, clock, newId, log, {
    kinds: PROVIDER_KINDS,
    ...options.outbound,
  });
  const service = new NotificationService({
    store,
    clock,
    newId,
    types: () => settings.current.types,
    changes,
    // The outbox items of a change commit with it (issue 9): a crash never loses a promised delivery.
    withinWrite: (change) => outbound.enqueuer.enqueue(change),
    transaction: (write) => db.transaction(write)(),
  });
  changes.subscribe(() => outbound.dispatcher.wake());
  const events = new EventService({
    validate: validateEnvelope,
    notifications: service,
  });
  const app: FastifyInstance = buildHttpServer({
    notifications: service,
    events,
    outbound,
    health: { version: VERSION, startedAt: clock(), clock, activeCount: () => service.countActive() },
    settings: () => settings.current,
    log,
    clock,
  });

  const port = settings.current.port;
  try {
    await app.listen({ host: '127.0.0.1', port });
  } catch (error) {
    db.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const message = `port ${port} on 127.0.0.1 is already in use; stop the other program or set another "port" in ${paths.configFile}`;
      log.error(`cannot start: ${message}`);
      throw new PortInUseError(message);
    }
    throw error;
  }

  const retention = new RetentionJob(store, () => settings.current.retentionDays, clock, log);
  retention.start(RETENTION_INTERVAL_MS);
  outbound.dispatcher.start();
  settings.watch({
    onReload: (changed) => log.info(`config reloaded: ${changed.join(', ')}`),
    onProblem: (message) => log.warn(message),
  });
  log.info(`Notify ${VERSION} started on http://127.0.0.1:${port} (pid ${process.pid})`);

  return {
    port,
    settings,
    log,
    async stop() {
      settings.stop();
      retention.stop();
      await app.close();
      await outbound.dispatcher.stop();
      db.close();
      log.info('Notify stopped');
    },
  };
}
