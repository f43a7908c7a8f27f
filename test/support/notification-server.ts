import { DbusConnection, DbusObject, type Variant } from '../../src/presentation/dbus.js';
import { NOTIFICATIONS_NAME, NOTIFICATIONS_PATH } from '../../src/presentation/freedesktop-display.js';

/** One Notify call as the server received it, hints unwrapped from their variants. */
export interface NotifyCall {
  appName: string;
  replacesId: number;
  icon: string;
  summary: string;
  body: string;
  actions: string[];
  hints: Record<string, unknown>;
  expireTimeout: number;
  /** The id the server answered with. */
  id: number;
}

export interface ServerOptions {
  capabilities?: string[];
  /** Each toast times out right after it is shown (benchmarks: keeps the broker's queue moving). */
  expireAtOnce?: boolean;
  /** Told of each Notify call as it arrives (benchmarks time it). */
  onNotify?: (call: NotifyCall) => void;
}

/** The freedesktop interface, recording every call; a tiny stand-in for a desktop's notification daemon. */
class NotificationsObject extends DbusObject {
  readonly calls: NotifyCall[] = [];
  readonly closeCalls: number[] = [];
  readonly open = new Set<number>();
  onCall: () => void = () => {};
  onNotify: (call: NotifyCall) => void = () => {};
  expireAtOnce = false;
  /** While set, Notify records each call at once but answers it only once this settles. */
  held: Promise<void> | undefined;
  #nextId = 1;

  constructor(
    private readonly connection: DbusConnection,
    private readonly capabilities: string[],
  ) {
    super(NOTIFICATIONS_NAME);
  }

  Notify(
    appName: string,
    replacesId: number,
    icon: string,
    summary: string,
    body: string,
    actions: string[],
    hints: Record<string, Variant>,
    expireTimeout: number,
  ): number | Promise<number> {
    const id = replacesId !== 0 && this.open.has(replacesId) ? replacesId : this.#nextId++;
    this.open.add(id);
    const unwrapped = Object.fromEntries(Object.entries(hints).map(([key, value]) => [key, value.value]));
    const call = { appName, replacesId, icon, summary, body, actions, hints: unwrapped, expireTimeout, id };
    this.calls.push(call);
    this.onNotify(call);
    this.onCall();
    if (this.expireAtOnce) setImmediate(() => this.emitClosed(id, 1));
    return this.held ? this.held.then(() => id) : id;
  }

  CloseNotification(id: number): void {
    this.closeCalls.push(id);
    this.onCall();
    this.emitClosed(id, 3);
  }

  GetCapabilities(): string[] {
    return this.capabilities;
  }

  GetServerInformation(): [string, string, string, string] {
    return ['notify-test-server', 'Notify tests', '1.0', '1.2'];
  }

  emitClosed(id: number, reason: number): void {
    if (!this.open.delete(id)) return;
    this.connection.emitSignal(NOTIFICATIONS_PATH, NOTIFICATIONS_NAME, 'NotificationClosed', 'uu', [
      id,
      reason,
    ]);
  }
}

NotificationsObject.configureMembers({
  methods: {
    Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' },
    CloseNotification: { inSignature: 'u', outSignature: '' },
    GetCapabilities: { inSignature: '', outSignature: 'as' },
    GetServerInformation: { inSignature: '', outSignature: 'ssss' },
  },
});

export interface TestNotificationServer {
  calls: NotifyCall[];
  closeCalls: number[];
  /** Ids of toasts on "screen". */
  open: Set<number>;
  /** The toast timed out (reason 1). */
  expire(id: number): void;
  /** The person pressed a button. */
  invokeAction(id: number, key: string): void;
  /**
   * Answers Notify calls from now on only once the returned function is called: a toast being replaced
   * stays on screen as it was, as on a busy desktop.
   */
  holdReplies(): () => void;
  /** Resolves once `predicate` holds, checked after every call the server gets. */
  until(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export async function startNotificationServer(
  address: string,
  options: ServerOptions = {},
): Promise<TestNotificationServer> {
  const connection = await DbusConnection.open(address);
  const object = new NotificationsObject(
    connection,
    options.capabilities ?? ['actions', 'body', 'body-markup', 'persistence'],
  );
  object.expireAtOnce = options.expireAtOnce ?? false;
  if (options.onNotify) object.onNotify = options.onNotify;
  connection.export(NOTIFICATIONS_PATH, object);
  if (!(await connection.requestName(NOTIFICATIONS_NAME))) throw new Error('could not own the name');
  const waiters = new Set<() => void>();
  object.onCall = () => waiters.forEach((check) => check());
  return {
    calls: object.calls,
    closeCalls: object.closeCalls,
    open: object.open,
    expire: (id) => object.emitClosed(id, 1),
    holdReplies: () => {
      let release = () => {};
      object.held = new Promise((resolve) => (release = resolve));
      return () => {
        object.held = undefined;
        release();
      };
    },
    invokeAction: (id, key) =>
      connection.emitSignal(NOTIFICATIONS_PATH, NOTIFICATIONS_NAME, 'ActionInvoked', 'us', [id, key]),
    until: (predicate, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `condition not met within ${timeoutMs} ms; calls so far: ${object.calls.map((call) => `${call.id} ${call.summary}`).join(', ')}; open: ${[...object.open].join(', ')}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    stop: () => connection.close(),
  };
}
