import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from './arrivals.js';
import { within } from './wait-for.js';

/**
 * A Matrix homeserver for the tests (client-server API v3, https://spec.matrix.org/latest/), the
 * subset Notify uses, for one room: whoami, PUT send/m.room.message/{txnId} (idempotent per
 * transaction id), GET event/{eventId} with the latest edit under unsigned m.relations, and /sync with
 * real long polling (since, timeout, the room filter). A test replies and reacts as people would,
 * makes calls fail (429 M_LIMIT_EXCEEDED with retry_after_ms) and reads the room. Exported for benches
 * too: start, next message, react.
 */

export interface RoomEvent {
  event_id: string;
  sender: string;
  type: string;
  origin_server_ts: number;
  content: Record<string, unknown>;
}

/** One of the bot's messages as a client shows it: its latest edit applied. */
export interface ShownMessage {
  event_id: string;
  content: Record<string, unknown>;
  /** Every content it had, the first from the send. */
  history: Record<string, unknown>[];
}

export interface ServerCall {
  method: string;
  path: string;
  at: number;
  failedWith?: number;
}

export interface MatrixApi {
  url: string;
  accessToken: string;
  roomId: string;
  botUserId: string;
  calls: ServerCall[];
  timeline: RoomEvent[];
  nextMessage(): Promise<ShownMessage>;
  /** A person reacts to an event; resolves with the reaction's event id. */
  react(eventId: string, key: string, sender: string): string;
  /** A person replies to an event with `body`; resolves with the reply's event id. */
  reply(eventId: string, body: string, sender: string): string;
  /** The bot's notice replying to that event, once it came. */
  noticeFor(eventId: string): Promise<string>;
  /** The next `count` calls of kind `send` or `sync` fail with this status (429: retry_after_ms). */
  failNext(kind: 'send' | 'sync', status: number, count?: number, retryAfterMs?: number): void;
  /**
   * The next send is taken but neither stored nor answered until the returned function is called (a
   * homeserver slow to accept an edit); resolves once that send arrived.
   */
  holdNextSend(): Promise<() => void>;
  /** Resolves when a /sync with a timeout is waiting. */
  pollOpen(): Promise<void>;
  close(): Promise<void>;
}

export async function startMatrixApi(accessToken = 'syt_bm90aWZ5_testTOKENvalue_1a2b3c'): Promise<MatrixApi> {
  const roomId = '!notifyroom:example.test';
  const botUserId = '@notify-bot:example.test';
  const calls: ServerCall[] = [];
  const timeline: RoomEvent[] = [];
  const transactions = new Map<string, string>();
  const shown = new Map<string, ShownMessage>();
  const failures = new Map<string, { status: number; count: number; retryAfterMs?: number }>();
  const sent = new Arrivals<ShownMessage>();
  const watchers: (() => void)[] = [];
  let sequence = 0;
  let hold: { arrived?: () => void; release?: Promise<void>; open?: () => void } | undefined;
  let waiting: { since: number; response: ServerResponse; timer: NodeJS.Timeout } | undefined;

  const notify = () => {
    for (const watcher of watchers.splice(0)) watcher();
  };
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (condition() ? resolve() : watchers.push(check));
      check();
    });
  const json = (response: ServerResponse, status: number, body: unknown) => {
    if (response.destroyed || response.writableEnded) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const syncBody = (from: number) => ({
    next_batch: `s${timeline.length}`,
    rooms: { join: { [roomId]: { timeline: { events: timeline.slice(from), limited: false } } } },
  });
  const flush = () => {
    if (waiting === undefined || waiting.since >= timeline.length) return;
    const { since, response, timer } = waiting;
    clearTimeout(timer);
    waiting = undefined;
    json(response, 200, syncBody(since));
  };
  const append = (sender: string, type: string, content: Record<string, unknown>): RoomEvent => {
    const event: RoomEvent = {
      event_id: `$ev${++sequence}:example.test`,
      sender,
      type,
      origin_server_ts: Date.now(),
      content,
    };
    timeline.push(event);
    if (sender === botUserId && type === 'm.room.message') {
      const relates = content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined;
      if (relates?.rel_type === 'm.replace') {
        const target = shown.get(relates.event_id ?? '');
        if (target) {
          target.content = content['m.new_content'] as Record<string, unknown>;
          target.history.push(target.content);
        }
      } else if (content['msgtype'] === 'm.text') {
        const message = { event_id: event.event_id, content, history: [content] };
        shown.set(event.event_id, message);
        sent.add(message);
      }
    }
    flush();
    notify();
    return event;
  };
  const latestEdit = (eventId: string) =>
    timeline.findLast(
      (event) =>
        event.sender === botUserId &&
        (event.content['m.relates_to'] as { rel_type?: string; event_id?: string } | undefined)?.rel_type ===
          'm.replace' &&
        (event.content['m.relates_to'] as { event_id?: string }).event_id === eventId,
    );

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const call: ServerCall = { method: request.method ?? '', path: url.pathname, at: Date.now() };
      calls.push(call);
      if (request.headers.authorization !== `Bearer ${accessToken}`)
        return json(response, 401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' });
      const kind = url.pathname.endsWith('/sync') ? 'sync' : url.pathname.includes('/send/') ? 'send' : '';
      const failure = failures.get(kind);
      if (failure !== undefined && failure.count > 0) {
        failure.count -= 1;
        call.failedWith = failure.status;
        return json(response, failure.status, {
          errcode: failure.status === 429 ? 'M_LIMIT_EXCEEDED' : 'M_UNKNOWN',
          error: 'Too many requests',
          ...(failure.retryAfterMs !== undefined && { retry_after_ms: failure.retryAfterMs }),
        });
      }
      if (url.pathname === '/_matrix/client/v3/account/whoami')
        return json(response, 200, { user_id: botUserId, device_id: 'NOTIFYDEV' });
      if (url.pathname === '/_matrix/client/v3/sync') {
        const since = Number((url.searchParams.get('since') ?? 's0').slice(1));
        const timeout = Number(url.searchParams.get('timeout') ?? '0');
        if (waiting !== undefined) {
          clearTimeout(waiting.timer);
          json(waiting.response, 200, syncBody(waiting.since));
          waiting = undefined;
        }
        if (since < timeline.length || timeout <= 0) return json(response, 200, syncBody(since));
        const current = {
          since,
          response,
          timer: setTimeout(() => {
            if (waiting === current) waiting = undefined;
            json(response, 200, syncBody(since));
          }, timeout),
        };
        waiting = current;
        response.on('close', () => {
          if (waiting === current) {
            clearTimeout(current.timer);
            waiting = undefined;
          }
        });
        return notify();
      }
      const room = `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/`;
      if (!url.pathname.startsWith(room))
        return json(response, 403, { errcode: 'M_FORBIDDEN', error: 'not in the room' });
      const rest = url.pathname.slice(room.length).split('/').map(decodeURIComponent);
      if (request.method === 'PUT' && rest[0] === 'send' && rest[1] === 'm.room.message' && rest[2]) {
        const known = transactions.get(rest[2]);
        if (known) return json(response, 200, { event_id: known });
        const content = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        const store = () => {
          const event = append(botUserId, 'm.room.message', content);
          transactions.set(rest[2]!, event.event_id);
          json(response, 200, { event_id: event.event_id });
        };
        const held = hold;
        if (held?.release === undefined) return store();
        hold = undefined;
        held.arrived?.();
        void held.release.then(store);
        return;
      }
      if (request.method === 'GET' && rest[0] === 'event' && rest[1]) {
        const event = timeline.find((candidate) => candidate.event_id === rest[1]);
        if (!event) return json(response, 404, { errcode: 'M_NOT_FOUND', error: 'Event not found.' });
        const edit = latestEdit(event.event_id);
        return json(response, 200, {
          ...event,
          room_id: roomId,
          ...(edit && { unsigned: { 'm.relations': { 'm.replace': edit } } }),
        });
      }
      json(response, 404, { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accessToken,
    roomId,
    botUserId,
    calls,
    timeline,
    nextMessage: () => sent.next('a message in the room'),
    react: (eventId, key, sender) =>
      append(sender, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: eventId, key } })
        .event_id,
    reply: (eventId, body, sender) =>
      append(sender, 'm.room.message', {
        msgtype: 'm.text',
        body,
        'm.relates_to': { 'm.in_reply_to': { event_id: eventId } },
      }).event_id,
    noticeFor: async (eventId) => {
      const find = () =>
        timeline.find(
          (event) =>
            event.sender === botUserId &&
            event.content['msgtype'] === 'm.notice' &&
            (event.content['m.relates_to'] as { 'm.in_reply_to'?: { event_id?: string } } | undefined)?.[
              'm.in_reply_to'
            ]?.event_id === eventId,
        );
      await within(
        until(() => find() !== undefined),
        `the notice replying to ${eventId}`,
      );
      return String(find()!.content['body']);
    },
    failNext: (kind, status, count = 1, retryAfterMs) => {
      failures.set(kind, { status, count, ...(retryAfterMs !== undefined && { retryAfterMs }) });
    },
    holdNextSend: () =>
      within(
        new Promise((resolve) => {
          let open!: () => void;
          const release = new Promise<void>((done) => (open = done));
          hold = { release, open, arrived: () => resolve(open) };
        }),
        'the held send',
      ),
    pollOpen: () =>
      within(
        until(() => waiting !== undefined),
        'an open /sync',
      ),
    close: () =>
      new Promise((resolve) => {
        if (waiting) clearTimeout(waiting.timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
