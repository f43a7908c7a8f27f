/**
 * The hub's bus between relay processes on one PostgreSQL database: NOTIFY on one channel, heard by
 * every process on a connection of its own (LISTEN). A message too long for NOTIFY (8000 bytes) waits
 * in relay_bus and the notification carries its row's id.
 */
import type pg from 'pg';
import type { HubMessage } from './hub.js';
import type { PostgresDatabase } from './postgres-database.js';
import type { RelayLog } from './relay-log.js';

const CHANNEL = 'notify_relay';
/** Longer payloads spill into relay_bus: NOTIFY takes at most 8000 bytes. */
const MAX_INLINE_BYTES = 7_000;
const RECONNECT_MS = 1000;

export interface PostgresBus {
  publish(message: HubMessage): void;
  stop(): Promise<void>;
}

/** What the bus hands on: each message heard, and word that some may have gone unheard. */
export interface BusListener {
  deliver(message: HubMessage): void;
  /**
   * Listening again after the connection dropped: what was published meanwhile was never heard here,
   * so what relies on hearing it catches up another way.
   */
  missed(): void;
}

export async function startPostgresBus(
  db: PostgresDatabase,
  listener: BusListener,
  clock: () => number,
  log: RelayLog,
): Promise<PostgresBus> {
  let stopped = false;
  /** The connection this process listens on, and how to give it back to the pool once. */
  let listening: { connection: pg.PoolClient; release: (broken: boolean) => void } | undefined;

  const received = async (payload: string): Promise<void> => {
    let text = payload;
    if (payload.startsWith('@')) {
      const id = Number(payload.slice(1));
      const row = await db.get('SELECT payload FROM relay_bus WHERE id = ?', [id]);
      // Purged (an hour after it was written, by the writer's clock): lost, and said so, as a message
      // that was not sent is.
      if (row === undefined)
        return log.error(`bus: a long message was gone before it was heard (relay_bus row ${id})`);
      text = row['payload'] as string;
    }
    listener.deliver(JSON.parse(text) as HubMessage);
  };
  // Messages are handed on in the order they were heard, a spilled one included.
  let hearing = Promise.resolve();
  let retry: NodeJS.Timeout | undefined;
  /** The try to listen again under way, if any: stop() waits for it so it cannot outlive the stop. */
  let trying: Promise<void> | undefined;
  /** A second later, and every second after a failed try: a database restart can take a while. */
  const listenAgain = (): void => {
    if (stopped) return;
    retry = setTimeout(() => {
      trying = listen().then(listener.missed, (error: Error) => {
        log.error(`bus: listening again failed (${error.message}); trying again`);
        listenAgain();
      });
    }, RECONNECT_MS);
  };
  const listen = async (): Promise<void> => {
    const connection = await db.connect();
    // Given back once only: a connection that failed during LISTEN may also report the failure as an
    // 'error' event, and the pool throws on a second release.
    let released = false;
    const release = (broken: boolean): void => {
      if (released) return;
      released = true;
      connection.release(broken);
    };
    // Neither the channel nor the payload is checked: this connection LISTENs on the one channel, and
    // pg gives every notification its payload ('' when it had none, which is then logged as not JSON).
    connection.on('notification', ({ payload }) => {
      hearing = hearing
        .then(() => received(payload!))
        .catch((error: Error) => log.error(`bus: ${error.message}`));
    });
    connection.on('error', (error) => {
      release(true);
      // A failure before LISTEN succeeded is the failed LISTEN's own, handled where it was sent.
      if (listening?.connection !== connection) return;
      log.error(`bus: the LISTEN connection failed (${error.message}); listening again`);
      listening = undefined;
      listenAgain();
    });
    try {
      await connection.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      // The pool would wait for this connection forever when it closes (the process would not exit).
      release(true);
      throw error;
    }
    // A try that succeeds while stop() waits for it (the database came back during the stop) needs no
    // check of `stopped` here: stop() looks at `listening` only once the try is over, and gives this
    // connection back as it gives back any other.
    listening = { connection, release };
  };
  await listen();

  // One publish at a time: this process's messages reach everyone in the order it sent them.
  let sending = Promise.resolve();
  return {
    publish(message) {
      const text = JSON.stringify(message);
      sending = sending
        .then(async () => {
          let payload = text;
          if (Buffer.byteLength(text) > MAX_INLINE_BYTES) {
            const row = await db.get(
              'INSERT INTO relay_bus (payload, created_at) VALUES (?, ?) RETURNING id',
              [text, clock()],
            );
            payload = `@${row!['id'] as number}`;
          }
          await db.run('SELECT pg_notify(?, ?)', [CHANNEL, payload]);
        })
        .catch((error: Error) => log.error(`bus: a message was not sent: ${error.message}`));
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      // The try to listen again under way, if any: its connection, if it got one, is `listening` after.
      await trying;
      await sending;
      await hearing;
      if (listening) {
        await listening.connection.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        listening.release(false);
      }
    },
  };
}
