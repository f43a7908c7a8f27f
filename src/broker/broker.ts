import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOrCreateConfig } from '../config/config-file.js';
import { launcherDir, type NotifyPaths } from '../config/paths.js';
import { permissionWarnings } from '../config/permissions.js';
import { SettingsSource } from '../config/settings-source.js';
import { buildHttpServer } from '../http/server.js';
import { closeUnixSocket, listenOnUnixSocket } from '../http/unix-listener.js';
import type { Server } from 'node:net';
import { DailyFileLogger, type Logger } from '../log/logger.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { DataFolderInUseError, lockDataFolder } from '../store/data-lock.js';
import { DatabaseDamagedError } from '../store/integrity.js';
import { EventService, validatorOnFirstUse } from './event-service.js';
import { VERSION } from '../version.js';
import { systemClock, type Clock } from './clock.js';
import { createIdGenerator } from './ids.js';
import { ChangeFeed } from './change-feed.js';
import { ChangeStream } from './change-stream.js';
import { NotificationService } from './notification-service.js';
import { NewsExpiryJob } from './news-expiry.js';
import { AlertFeed } from './alert-feed.js';
import { ReminderJob } from './reminder-job.js';
import { relayAnswerSink } from './relay-answer-sink.js';
import { reminderPolicy } from '../domain/reminders.js';
import { TOAST_SNOOZE_MINUTES } from '../domain/snooze.js';
import { RetentionJob } from './retention.js';
import { SoundLibrary } from '../presentation/sound-library.js';
import { SoundPlayer } from '../presentation/sound-player.js';
import { soundsAvailable, startSounds } from '../presentation/sound-presenter.js';
import { ConfigEditor } from '../config/config-editor.js';
import { SettingsAdmin } from './settings-admin.js';
import { SoundAdmin } from './sound-admin.js';
import { platformDisplay } from '../presentation/platform.js';
import { answeredAction } from '../presentation/toast-display.js';
import { ToastPresenter } from '../presentation/toast-presenter.js';
import { QuietRetimer } from './quiet-retimer.js';
import { PresentationStatus } from '../presentation/presentation-status.js';
import { createOutbound, type Outbound, type OutboundOptions } from './outbound.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import { WorkerDeliverer } from './deliverers/worker-deliverer.js';
import { importKinds, REGISTRY_MODULE } from './deliverers/worker-protocol.js';
import { WebSessionStore } from '../store/web-session-store.js';
import { WebSessions } from './web-sessions.js';
import { AgentTokens } from './agent-tokens.js';
import { AgentTokenStore } from '../store/agent-token-store.js';
import { PageOpener } from './page-opener.js';
import { canOpenBrowser } from '../presentation/open-in-browser.js';
import { openSignInLink, removeLauncher } from '../presentation/sign-in-launcher.js';
import { FocusService } from './focus-service.js';
import { FocusHold } from '../presentation/focus-hold.js';
import { originHasFocus } from '../focus/place-focus.js';
import { runProgram } from '../focus/run-program.js';
import { canFocus } from '../domain/origin.js';

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** News resolves itself within this long after its time (resolveAfterMinutes). */
const NEWS_INTERVAL_MS = 30 * 1000;
/** Event stream: changes kept for Last-Event-ID resumption, open streams, unsent bytes, keep-alive. */
const STREAM_HISTORY = 1000;
const MAX_STREAM_SUBSCRIBERS = 256;
const MAX_STREAM_BUFFER_BYTES = 1024 * 1024;
const STREAM_HEARTBEAT_MS = 15_000;

/**
 * How long a stop waits for open requests (a slow upload, say) before it closes their connections.
 * Writes run to completion inside their handler, so nothing acknowledged is cut; the stop stays bounded.
 */
const STOP_GRACE_MS = 3000;

/** The web page as `npm run build` writes it: dist/web beside dist/src. */
const BUILT_WEB_PAGE = fileURLToPath(new URL('../../web', import.meta.url));

export interface BrokerOptions {
  paths: NotifyPaths;
  clock?: Clock;
  /**
   * Delivery tuning, and the module whose PROVIDER_KINDS the broker delivers with; the registry's kinds
   * and the documented policy by default.
   */
  outbound?: Partial<Omit<OutboundOptions, 'kinds' | 'deliverer'>> & { kindsModule?: string };
  /**
   * Told each value config.json held that had to be corrected (also logged), as soon as it is read:
   * before anything that can stop the start, so a start that fails still shows them.
   */
  onConfigWarning?: (warning: string) => void;
  /** The port to listen on instead of config.json's (notifyd --port, NOTIFY_PORT); the file keeps its own. */
  port?: number;
  /** The folder of the built web page (index.html, assets/); dist/web by default. */
  webRoot?: string;
  /**
   * The environment the web page is opened from the tray and toasts with ($BROWSER, PATH for xdg-open,
   * $XDG_RUNTIME_DIR for the sign-in launchers); the broker's own by default.
   */
  browserEnv?: NodeJS.ProcessEnv;
  /** Also serve the API on this Unix socket (issue 33; brokerSocketPath), made 0600 in a 0700 folder. */
  socketPath?: string;
}

export interface RunningBroker {
  port: number;
  /** The Unix socket it also listens on; absent when there is none (Windows, or it could not be made). */
  socketPath?: string;
  /** Problems found at start that the user should fix (file permissions); each is logged too. */
  warnings: string[];
  settings: SettingsSource;
  log: Logger;
  /** Whether toasts, the tray icon and sounds work, and why not: for the start banner. */
  presentation: PresentationStatus;
  /**
   * The clock moved other than by ticking (a resumed laptop, a test's driven clock): snooze ends,
   * reminders and delivery due times are looked at again now.
   */
  clockChanged(): void;
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
  const settings = new SettingsSource(paths.configFile, config.settings, options.port);
  const log = new DailyFileLogger(paths.logDir, () => [settings.current.authToken], clock);
  for (const warning of config.warnings) {
    log.warn(`config: ${warning}`);
    options.onConfigWarning?.(warning);
  }

  const { kindsModule = REGISTRY_MODULE, ...deliveryTuning } = options.outbound ?? {};
  const kinds = await importKinds(kindsModule);
  const { db, lock } = openOwnedDatabase(paths, log);
  const warnings = permissionWarnings(paths);
  warnings.forEach((warning) => log.warn(warning));
  const store = new NotificationStore(db);
  const writes = new WriteQueue(db);
  const changes = new ChangeFeed((error) => log.error(`a change listener failed: ${(error as Error).name}`));
  const stream = new ChangeStream(STREAM_HISTORY, clock());
  changes.subscribe((change) => stream.append(change));
  const newId = createIdGenerator(clock);
  const alerts = new AlertFeed((error) => log.error(`an alert listener failed: ${(error as Error).name}`));
  const outbound = createOutbound(db, paths, clock, newId, log, {
    ...deliveryTuning,
    kinds,
    deliverer: new WorkerDeliverer(kindsModule, log),
    quietHours: () => settings.current.quietHours,
  });
  const service = new NotificationService({
    store,
    writes,
    clock,
    newId,
    types: () => settings.current.types,
    changes,
    // The outbox items of a change commit with it (issue 9): a crash never loses a promised delivery.
    withinWrite: (change) => outbound.enqueuer.enqueue(change),
    log,
    alerts,
  });
  const focusDeps = { run: runProgram, uid: process.getuid?.() };
  const focus = new FocusService({ notifications: service, log, ...focusDeps });
  // Toasts and sounds see a change after the quiet-while-looking check; everything else at once.
  const hold = new FocusHold(
    {
      settings: () => settings.current,
      hasFocus: (record) => originHasFocus(record.origin, focusDeps),
      current: (id) => store.get(id),
      log,
    },
    (error) => log.error(`a change listener failed: ${(error as Error).name}`),
  );
  changes.subscribe(hold.onChange);
  const sounds = new SoundLibrary(join(paths.dataDir, 'sounds'));
  const player = new SoundPlayer({ log, clock });
  const stopSounds = startSounds(hold.out, {
    settings: () => settings.current,
    library: sounds,
    player,
    clock,
    log,
    alerts,
  });
  // One writer of config.json for the API and the tray: validated, atomic, and applied at once.
  const configEditor = new ConfigEditor(paths.configFile, settings);
  const browserEnv = options.browserEnv ?? process.env;
  const launchers = launcherDir(browserEnv);
  const webSessions = new WebSessions({
    store: new WebSessionStore(db),
    writes,
    clock,
    token: () => settings.current.authToken,
    log,
    // The launcher of a link (written here or by notifyctl open) goes as soon as its code is used up.
    codeEnded: (hash) => removeLauncher(launchers, hash),
  });
  // A token changed while Notify was stopped ends the sessions made under the old one.
  await webSessions
    .tokenChanged()
    .catch((error: unknown) =>
      log.error(`web page: sessions of an old token were not ended: ${(error as Error).message}`),
    );
  const canOpenPage = canOpenBrowser(browserEnv);
  const pageOpener = new PageOpener({
    sessions: webSessions,
    port: () => settings.current.port,
    canOpen: () => canOpenPage,
    open: (url) => openSignInLink(url, browserEnv),
    log,
  });
  const presentation = new PresentationStatus(
    () => settings.current,
    () => player.failing(),
  );
  const toasts = new ToastPresenter({
    status: (on, detail) => presentation.set('toasts', on, detail),
    display: platformDisplay(process.platform, process.env, canOpenPage, {
      pageUrl: `http://localhost:${settings.current.port}/`,
    }),
    settings: () => settings.current,
    act: async (id, action, revision) => {
      if (action === 'default' && canFocus(service.get(id).origin)) return focus.focus(id, 'a toast');
      if (action === 'default' || action === 'open') return pageOpener.open('a toast');
      const answer = answeredAction(action);
      if (answer !== undefined) return service.answerAs(id, answer, 'toast', revision);
      if (action === 'snooze') return service.snoozeFor(id, TOAST_SNOOZE_MINUTES);
      return action === 'resolve' ? service.changeStatus(id, { status: 'resolved' }) : service.dismiss(id);
    },
    log,
    soundsOn: soundsAvailable(),
    clock,
  });
  const reminders = new ReminderJob({
    store,
    writes,
    alerts,
    types: () => settings.current.types,
    quietHours: () => settings.current.quietHours,
    clock,
    log,
  });
  const quietRetimer = new QuietRetimer({
    notifications: store,
    outbox: outbound.outboxStore,
    writes,
    clock,
    wakeOutbox: () => outbound.dispatcher.wake(),
    wakeReminders: () => reminders.wake(),
    log,
  });
  let quietHours = settings.current.quietHours;
  alerts.subscribe((event) => {
    toasts.alert(event);
    if (event.kind === 'snoozed') reminders.wake();
  });
  // Only a change that can bring an earlier due time: a new lifecycle or a type that reminds, whose
  // first reminder is due a whole interval after the change at the earliest.
  changes.subscribe((change) => {
    const policy =
      change.record.status === 'active' && reminderPolicy(change.record.type, settings.current.types);
    if (policy) reminders.wakeFor(change.record.updatedAt + policy.everyMs);
  });
  const busAddress =
    process.platform === 'linux' ? process.env['DBUS_SESSION_BUS_ADDRESS'] || undefined : undefined;
  // The tray icon lives on the session D-Bus: without one, neither it nor the D-Bus library is loaded.
  const trayModule = busAddress === undefined ? undefined : await import('../presentation/tray/tray.js');
  const tray =
    trayModule &&
    new trayModule.Tray({
      status: (on, detail) => presentation.set('tray', on, detail),
      address: busAddress,
      active: () => service.list({ status: 'active', limit: '500' }),
      settings: () => ({ ...settings.current, canOpenPage }),
      run: async (command) => {
        if (command.op === 'open') await pageOpener.open('the tray');
        else if (command.op === 'focus') await focus.focus(command.notificationId, 'the tray');
        else if (command.op === 'resolve')
          await service.changeStatus(command.notificationId, { status: 'resolved' });
        else if (command.op === 'answer')
          await service.answerAs(command.notificationId, command.action, 'tray', command.revision);
        else if (command.op === 'dismiss') await service.dismiss(command.notificationId);
        else if (command.op === 'pause')
          configEditor.edit((document) => (document['pauseNotifications'] = command.on));
        else if (command.op === 'doNotDisturb')
          configEditor.edit((document) => (document['doNotDisturb'] = command.on));
        else process.kill(process.pid, 'SIGTERM');
      },
      log,
    });
  hold.out.subscribe((change) => toasts.handle(change));
  changes.subscribe(() => tray?.refresh());
  // Most people have no routes: then a change leaves the dispatcher asleep instead of running a round.
  changes.subscribe(() => {
    if (outbound.enqueuer.hasLiveRoutes()) outbound.dispatcher.wake();
  });
  const events = new EventService({ validator: validatorOnFirstUse(), notifications: service });
  const app: FastifyInstance = buildHttpServer({
    notifications: service,
    events,
    outbound,
    health: { version: VERSION, startedAt: clock(), clock, activeCount: () => service.countActive() },
    stream: {
      changes: stream,
      maxSubscribers: MAX_STREAM_SUBSCRIBERS,
      maxBufferedBytes: MAX_STREAM_BUFFER_BYTES,
      heartbeatMs: STREAM_HEARTBEAT_MS,
      sessionLive: (secret) => webSessions.authenticate(secret) !== undefined,
    },
    presentation: {
      showSample: () => toasts.showSample(),
      report: () => presentation.report(),
      waiting: () => service.waiting(),
    },
    settings: () => settings.current,
    log,
    clock,
    settingsAdmin: new SettingsAdmin({
      editor: configEditor,
      settings: () => settings.current,
      sounds,
    }),
    soundAdmin: new SoundAdmin({ library: sounds, player, settings: () => settings.current }),
    focus,
    web: {
      root: options.webRoot ?? BUILT_WEB_PAGE,
      sessions: webSessions,
      port: () => settings.current.port,
    },
    agentTokens: new AgentTokens({ store: new AgentTokenStore(db), writes, clock, log }),
  });

  const port = settings.current.port;
  try {
    await app.listen({ host: '127.0.0.1', port });
  } catch (error) {
    writes.close();
    db.close();
    lock.release();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const message = `port ${port} on 127.0.0.1 is already in use; stop the other program, or choose another port: notifyd --port <n>, NOTIFY_PORT, or "port" in ${paths.configFile}`;
      log.error(`cannot start: ${message}`);
      throw new PortInUseError(message);
    }
    throw error;
  }
  const socket =
    options.socketPath === undefined ? undefined : await openSocket(app, options.socketPath, log);

  const retention = new RetentionJob(store, writes, () => settings.current.retentionDays, clock, log);
  retention.start(RETENTION_INTERVAL_MS);
  const news = new NewsExpiryJob({ store, service, types: () => settings.current.types, clock, log });
  news.start(NEWS_INTERVAL_MS);
  reminders.start();
  await sealPlainSecrets(outbound, log);
  outbound.start();
  outbound.followRelays(relayAnswerSink(service));
  outbound.listenToChannels({
    answer: async (id, action, surface, revision) =>
      void (await service.answerAs(id, action, surface, revision)),
    actionsOf: (id) => {
      const record = service.find(id);
      return record === undefined ? undefined : (record.actions ?? []);
    },
  });
  settings.watch({
    onReload: (changed) => {
      log.info(`config reloaded: ${changed.join(', ')}`);
      if (changed.includes('authToken'))
        webSessions
          .tokenChanged()
          .catch((error: unknown) =>
            log.error(`web page: sessions of the old token were not ended: ${(error as Error).message}`),
          );
      toasts.settingsChanged();
      tray?.refresh();
      if (changed.includes('quietHours')) {
        const before = quietHours;
        quietHours = settings.current.quietHours;
        quietRetimer
          .changed(before, quietHours)
          .catch((error: unknown) =>
            log.error(`quiet hours: held sends were not re-timed: ${(error as Error).message}`),
          );
      }
    },
    onProblem: (message) => log.warn(message),
  });
  log.info(
    `Notify ${VERSION} started on http://127.0.0.1:${port}${socket ? ` and ${options.socketPath}` : ''} (pid ${process.pid})`,
  );
  toasts.start();
  void tray?.start();

  return {
    port,
    ...(socket && { socketPath: options.socketPath! }),
    warnings,
    settings,
    log,
    presentation,
    clockChanged() {
      reminders.wake();
      outbound.dispatcher.wake();
    },
    async stop() {
      settings.stop();
      stopSounds();
      retention.stop();
      news.stop();
      reminders.stop();
      stream.end();
      hold.stop();
      toasts.stop();
      tray?.stop();
      const grace = setTimeout(() => app.server.closeAllConnections(), STOP_GRACE_MS);
      if (socket) await closeUnixSocket(socket, options.socketPath!);
      await app.close();
      clearTimeout(grace);
      webSessions.forgetCodes();
      await outbound.stop();
      writes.close();
      db.close();
      lock.release();
      log.info('Notify stopped');
    },
  };
}

/**
 * The socket is a second way in: when it cannot be made (someone else's file in its place, a path
 * too long for a socket), the broker still serves its port and says why in the log.
 */
async function openSocket(app: FastifyInstance, path: string, log: Logger): Promise<Server | undefined> {
  try {
    return await listenOnUnixSocket(app, path);
  } catch (error) {
    log.warn(`no Unix socket: ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Problems that stop the start with their message on stderr and in the log, and exit code 1. */
export const START_REFUSALS = [PortInUseError, DataFolderInUseError, DatabaseDamagedError] as const;

/** The data folder's lock first, so no second broker ever opens the file; then the checked database. */
function openOwnedDatabase(paths: NotifyPaths, log: Logger): { db: Db; lock: { release(): void } } {
  let lock;
  try {
    lock = lockDataFolder(paths.dataDir);
    return { db: openDatabase(paths.databaseFile), lock };
  } catch (error) {
    lock?.release();
    if (error instanceof DataFolderInUseError || error instanceof DatabaseDamagedError) {
      log.error(`cannot start: ${error.message}`);
    }
    throw error;
  }
}

/** A locked keyring leaves the plain values where they are (still delivered); the next start tries again. */
async function sealPlainSecrets(outbound: Outbound, log: Logger): Promise<void> {
  try {
    const sealed = await outbound.providers.sealPlainSecrets();
    if (sealed > 0) log.info(`secrets: sealed settings now declared secret of ${sealed} provider(s)`);
  } catch (error) {
    if (!(error instanceof SecretsUnreadableError)) throw error;
    log.warn('secrets: settings now declared secret stay unsealed until the master key can be read');
  }
}
