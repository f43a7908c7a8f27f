import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real HTTP server that speaks the relay protocol (docs/relay-protocol.md) and can be told to answer
 * the way a real relay never does on its own: slow_down at will, dropped connections, a bad well-known
 * document, verification URLs on another origin, 401 in the middle of polling, expiry, consumption,
 * rejection. It also keeps delivered notifications with their lifecycles and serves the event stream,
 * so notifyd's relay provider and answers can run against it.
 */

/** One scripted answer to a poll; `drop` closes the connection without a response (a transient failure). */
export type PollStep =
  | 'pending'
  | 'slow_down'
  | 'approved'
  | 'rejected'
  | 'expired'
  | 'consumed'
  | 'drop'
  | 'http500'
  | 'http401'
  | 'http429'
  | 'http404'
  /** 200 with a status the protocol does not have. */
  | 'odd';

export interface RelayNotification {
  id: string;
  lifecycle: number;
  status: string;
  body: Record<string, unknown>;
}

export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface TestRelayOptions {
  name?: string;
  /** Replaces the well-known document (an object) or answers it with this status. */
  wellKnown?: Record<string, unknown> | number;
  /** The origin the verification URLs are put on; the relay's own by default. */
  verificationOrigin?: string;
  /** The origin of verification_uri alone (verification_uri_complete keeps the relay's own). */
  plainVerificationOrigin?: string;
  /** Answers POST /v1/pairings with this error status instead (429 with `retryAfter` when given). */
  pairingStatus?: number;
  /** The status of a started pairing: 201, as the protocol says, by default. */
  startedStatus?: number;
  /** Answered to POST /v1/pairings instead of the pairing request, e.g. one without its poll secret. */
  startedBody?: Record<string, unknown>;
  /** The Retry-After of a 429 (a refused pairing or an `http429` poll); `0` for a poll by default. */
  retryAfter?: string;
  /** Whether the pairing has a verification_uri_complete; true by default. */
  completeUri?: boolean;
  /** Poll answers in order; the last one repeats. */
  polls?: PollStep[];
  expiresIn?: number;
  interval?: number;
  installationName?: string;
  /** The relay account GET /v1/installation names as the owner; `ada` by default. */
  owner?: string;
  /** The path of the verification URLs; `/pair` by default. */
  verificationPath?: string;
  /** GET /v1/installation answers 500 this many times first. */
  installationFailures?: number;
  /** Answered to GET /v1/installation instead of the installation, e.g. another id. */
  installationOverride?: Record<string, unknown>;
  /**
   * The first event stream is a malicious relay's: one line that never ends, or events without pause;
   * either goes on until notifyd closes it. Later streams are ordinary.
   */
  firstStream?: 'endless-line' | 'flood' | 'comment-flood';
  /** Serve HTTPS with this key and certificate (the URL is then https://127.0.0.1:port). */
  tls?: { key: Buffer; cert: Buffer };
}

export interface TestRelay {
  url: string;
  calls: RecordedCall[];
  /** Every credential handed out, to check none is ever printed. */
  credentials: string[];
  notifications: Map<string, RelayNotification>;
  installationId: string;
  setPolls(steps: PollStep[]): void;
  /** Refuses the credential from now on, with 401 (revoked) or 403 (as a relay that forbids it). */
  revoke(status?: 401 | 403): void;
  /**
   * Queues an answer event, as the inbox does when the person presses a button: to the sender's
   * revision it has stored (as notify-relay does), or to `revision`.
   */
  answer(notificationId: string, action: string, lifecycle?: number, revision?: number): void;
  /** Queues a status event, as the inbox does on resolve or dismiss. */
  endFromPhone(notificationId: string, status: 'resolved' | 'dismissed'): void;
  /** Open event streams right now. */
  openStreams(): number;
  /** Closes every open event stream, as a restart of the relay would. */
  dropStreams(): void;
  /**
   * From now on a PUT takes effect at once but its response waits (a slow network back): the function
   * returned sends the responses held and stops holding.
   */
  holdPutResponses(): () => void;
  close(): Promise<void>;
}

interface StoredEvent {
  id: number;
  type: string;
  data: string;
}

export async function startTestRelay(options: TestRelayOptions = {}): Promise<TestRelay> {
  let polls: PollStep[] = [...(options.polls ?? ['pending', 'approved'])];
  const calls: RecordedCall[] = [];
  const credentials: string[] = [];
  const notifications = new Map<string, RelayNotification>();
  const installationId = `i_${randomBytes(6).toString('hex')}`;
  const pairings = new Map<string, { secret: string }>();
  let credential: string | undefined;
  let revoked = false;
  let refusedWith: 401 | 403 = 401;
  const events: StoredEvent[] = [];
  let nextEventId = 40;
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const idempotency = new Map<string, { status: number; body: string }>();
  let heldPuts: (() => void)[] | undefined;
  let installationFailures = options.installationFailures ?? 0;

  const listener: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://relay').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      calls.push({ method: request.method ?? '', path, headers: request.headers, body, at: Date.now() });
      route(request, response, path, body);
    });
  };
  const server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(
    response: ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(body === undefined ? '' : JSON.stringify(body));
  }

  function error(
    response: ServerResponse,
    status: number,
    code: string,
    headers: Record<string, string> = {},
  ) {
    send(response, status, { error: code, error_description: `${code} from the test relay` }, headers);
  }

  function authorized(request: IncomingMessage): boolean {
    return credential !== undefined && !revoked && request.headers.authorization === `Bearer ${credential}`;
  }

  function queue(type: string, data: Record<string, unknown>): void {
    nextEventId += 3;
    const event = { id: nextEventId, type, data: JSON.stringify(data) };
    events.push(event);
    for (const stream of streams) writeEvent(stream, event);
  }

  function writeEvent(stream: ServerResponse, event: StoredEvent): void {
    stream.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`);
  }

  function route(request: IncomingMessage, response: ServerResponse, path: string, body: string): void {
    const method = request.method;
    if (method === 'GET' && path === '/.well-known/notify-relay') {
      if (typeof options.wellKnown === 'number') return error(response, options.wellKnown, 'not_found');
      return send(
        response,
        200,
        options.wellKnown ?? {
          service: 'notify-relay',
          name: options.name ?? 'Test relay',
          api_versions: ['v1'],
        },
      );
    }
    if (method === 'POST' && path === '/v1/pairings') {
      if (options.pairingStatus !== undefined) {
        const retry: Record<string, string> =
          options.retryAfter === undefined ? {} : { 'retry-after': options.retryAfter };
        return error(response, options.pairingStatus, 'rate_limited', retry);
      }
      const id = `p_${randomBytes(6).toString('hex')}`;
      const secret = `nrp_${randomBytes(12).toString('hex')}`;
      pairings.set(id, { secret });
      // As the real relay does: its own origin as the client addressed it (the Host header).
      const origin =
        options.verificationOrigin ??
        `${new URL(url).protocol}//${request.headers.host ?? new URL(url).host}`;
      if (options.startedBody !== undefined)
        return send(response, options.startedStatus ?? 201, options.startedBody);
      return send(response, options.startedStatus ?? 201, {
        pairing_id: id,
        user_code: 'WDJB-MJHT',
        verification_uri: `${options.plainVerificationOrigin ?? origin}${options.verificationPath ?? '/pair'}`,
        ...(options.completeUri !== false && {
          verification_uri_complete: `${origin}${options.verificationPath ?? '/pair'}?code=WDJB-MJHT`,
        }),
        poll_secret: secret,
        expires_in: options.expiresIn ?? 600,
        interval: options.interval ?? 0.05,
      });
    }
    const poll = /^\/v1\/pairings\/([^/]+)\/poll$/.exec(path);
    if (method === 'POST' && poll) {
      const pairing = pairings.get(poll[1]!);
      if (!pairing || request.headers.authorization !== `Bearer ${pairing.secret}`)
        return error(response, 401, 'invalid_auth');
      const step = polls.length > 1 ? polls.shift()! : polls[0]!;
      switch (step) {
        case 'drop':
          return void request.socket.destroy();
        case 'http500':
          return error(response, 500, 'server_error');
        case 'http401':
          return error(response, 401, 'invalid_auth');
        case 'http404':
          return error(response, 404, 'not_found');
        case 'odd':
          return send(response, 200, { status: 'odd' });
        case 'http429':
          return error(response, 429, 'rate_limited', { 'retry-after': options.retryAfter ?? '0' });
        case 'slow_down':
          return send(response, 200, { status: 'slow_down', interval: 10 });
        case 'approved':
          credential = `nrc_${randomBytes(16).toString('hex')}`;
          credentials.push(credential);
          revoked = false;
          return send(response, 200, {
            status: 'approved',
            credential,
            installation: { id: installationId, name: options.installationName ?? 'test-laptop' },
          });
        default:
          return send(response, 200, { status: step });
      }
    }
    if (!authorized(request))
      return refusedWith === 403 && revoked
        ? error(response, 403, 'forbidden')
        : error(response, 401, 'invalid_auth', { 'www-authenticate': 'Bearer' });
    if (method === 'GET' && path === '/v1/installation') {
      if (installationFailures > 0) {
        installationFailures -= 1;
        return error(response, 500, 'server_error');
      }
      return send(
        response,
        200,
        options.installationOverride ?? {
          id: installationId,
          name: options.installationName ?? 'test-laptop',
          relay_name: options.name ?? 'Test relay',
          owner: options.owner ?? 'ada',
          created_at: new Date().toISOString(),
        },
      );
    }
    const item = /^\/v1\/notifications\/([^/]+)(\/status)?$/.exec(path);
    if (item && method === 'PUT' && item[2] === undefined)
      return put(request, response, decodeURIComponent(item[1]!), body);
    if (item && method === 'POST' && item[2] !== undefined) {
      const stored = notifications.get(decodeURIComponent(item[1]!));
      if (!stored) return error(response, 404, 'not_found');
      const status = (JSON.parse(body) as { status: string }).status;
      if (stored.status === 'active') stored.status = status;
      return send(response, 200, { id: stored.id, lifecycle: stored.lifecycle, status: stored.status });
    }
    if (method === 'GET' && path === '/v1/events') return openStream(request, response);
    error(response, 404, 'not_found');
  }

  function put(request: IncomingMessage, response: ServerResponse, id: string, body: string): void {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return error(response, 400, 'invalid_request');
    const seen = idempotency.get(key);
    if (seen) {
      response.writeHead(seen.status, { 'content-type': 'application/json' });
      return void response.end(seen.body);
    }
    const fields = JSON.parse(body) as Record<string, unknown>;
    const stored = notifications.get(id);
    let status = 200;
    if (!stored) {
      notifications.set(id, { id, lifecycle: 1, status: String(fields['status']), body: fields });
      status = 201;
    } else {
      if (fields['status'] === 'active' && stored.status !== 'active') {
        stored.lifecycle += 1;
        status = 201;
      }
      stored.status = String(fields['status']);
      stored.body = fields;
    }
    const now = notifications.get(id)!;
    const answer = JSON.stringify({ id, lifecycle: now.lifecycle, status: now.status });
    idempotency.set(key, { status, body: answer });
    const respond = () => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(answer);
    };
    if (heldPuts) heldPuts.push(respond);
    else respond();
  }

  let streamsOpened = 0;
  function openStream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    streamsOpened += 1;
    if (streamsOpened === 1 && options.firstStream !== undefined) return pour(response, options.firstStream);
    response.write('retry: 5000\n\n');
    const last = Number(request.headers['last-event-id'] ?? 0);
    for (const event of events) if (event.id > last) writeEvent(response, event);
    streams.add(response);
    response.on('close', () => streams.delete(response));
  }

  /** Writes without end, as fast as the connection takes it, until the reader closes it. */
  function pour(response: ServerResponse, kind: 'endless-line' | 'flood' | 'comment-flood'): void {
    let next = 1_000_000;
    const piece =
      kind === 'endless-line'
        ? () => 'x'.repeat(1 << 20)
        : kind === 'comment-flood'
          ? () => ': keep-alive\n\n'.repeat(500)
          : () =>
              Array.from({ length: 500 }, () => {
                next += 1;
                return `id: ${next}\nevent: ping\ndata: {}\n\n`;
              }).join('');
    if (kind === 'endless-line') response.write('data: ');
    let open = true;
    response.on('close', () => (open = false));
    const write = () => {
      while (open && response.write(piece()));
      if (open) response.once('drain', write);
    };
    write();
  }

  return {
    url,
    calls,
    credentials,
    notifications,
    installationId,
    setPolls: (steps) => (polls = [...steps]),
    revoke(status = 401) {
      revoked = true;
      refusedWith = status;
      for (const stream of streams) stream.destroy();
    },
    answer(notificationId, action, lifecycle, revision) {
      const stored = notifications.get(notificationId);
      queue('answer', {
        notification_id: notificationId,
        lifecycle: lifecycle ?? stored?.lifecycle ?? 1,
        revision: revision ?? stored?.body['revision'] ?? 1,
        action,
        answered_at: new Date().toISOString(),
      });
      if (stored && lifecycle === undefined) stored.status = 'resolved';
    },
    endFromPhone(notificationId, status) {
      const stored = notifications.get(notificationId);
      if (stored) stored.status = status;
      queue('status', {
        notification_id: notificationId,
        lifecycle: stored?.lifecycle ?? 1,
        status,
        changed_at: new Date().toISOString(),
      });
    },
    openStreams: () => streams.size,
    holdPutResponses() {
      const held: (() => void)[] = [];
      heldPuts = held;
      return () => {
        heldPuts = undefined;
        for (const respond of held) respond();
      };
    },
    dropStreams() {
      for (const stream of streams) stream.destroy();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How a pairing can end while `notify relay pair` polls, and what it then says (docs/relay.md): the
 * bundled command's tests and the in-process tests of its module share this table.
 */
export const PAIRING_ENDINGS: readonly { step: PollStep; state: string; message: string }[] = [
  {
    step: 'rejected',
    state: 'rejected',
    message: 'The pairing was rejected on the relay; nothing was saved.',
  },
  {
    step: 'expired',
    state: 'expired',
    message: 'The pairing code expired before it was approved; run notify relay pair again.',
  },
  {
    step: 'consumed',
    state: 'consumed',
    message:
      'The relay says this pairing was already collected by another poll; nothing was saved here. Revoke that installation on the relay and pair again.',
  },
  {
    step: 'http401',
    state: 'invalid_auth',
    message: 'The relay no longer accepts this pairing (invalid_auth); run notify relay pair again.',
  },
];
