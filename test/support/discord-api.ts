import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from './arrivals.js';
import { waitFor } from './wait-for.js';
import { acceptWebSockets, type ServerSocket } from './websocket-server.js';

/**
 * A stand-in for Discord, written from its published reference: the HTTP API calls Notify makes
 * (GET /gateway/bot, POST and PATCH /channels/{id}/messages, POST /interactions/{id}/{token}/callback;
 * `Authorization: Bot …`; a 429 with `retry_after` in its JSON body) and the Gateway over a real
 * WebSocket (Hello, Identify → READY with a session and a resume URL, heartbeats and their
 * acknowledgements, dispatches with sequence numbers, Reconnect, Resume → the missed events, RESUMED;
 * close 4004 for a wrong token). A benchmark uses it as well: start it, await the next message, press
 * a button.
 */

export interface DiscordButton {
  type: number;
  style: number;
  label: string;
  custom_id: string;
}

export interface DiscordMessage {
  id: string;
  channel_id: string;
  embeds: { title: string; description?: string; footer?: { text: string } }[];
  components: { type: number; components: DiscordButton[] }[];
  /** Every version the message had, first the posted one. */
  history: { embeds: DiscordMessage['embeds']; components: DiscordMessage['components'] }[];
}

export interface DiscordCallback {
  interactionId: string;
  token: string;
  body: { type: number; data?: { content?: string; flags?: number } };
}

export interface DiscordRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface DiscordFailure {
  status: number;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
}

export interface GatewayConnection {
  socket: ServerSocket;
  /** The Identify or Resume it sent. */
  opened?: { op: number; d: Record<string, unknown> };
  sessionId?: string;
}

export interface DiscordStandIn {
  apiUrl: string;
  botToken: string;
  requests: DiscordRequest[];
  messages: DiscordMessage[];
  callbacks: DiscordCallback[];
  connections: GatewayConnection[];
  /** The next request whose "METHOD path" starts with `route` is answered with this instead. */
  failNext(route: string, failure: DiscordFailure): void;
  /** The connection that last became ready (READY or RESUMED) and is still open. */
  readyConnection(): Promise<GatewayConnection>;
  message(title: string): Promise<DiscordMessage>;
  /** The next message posted (the first one not yet taken), the moment it is posted. */
  nextMessage(): Promise<DiscordMessage>;
  /** The buttons' custom_ids of a message as it shows now. */
  buttons(message: DiscordMessage): string[];
  /** A person presses the button with this custom_id; resolves with the broker's callback. */
  press(message: DiscordMessage, customId: string, userId: string): Promise<DiscordCallback>;
  /** Sends op 7 Reconnect on the ready connection. */
  askReconnect(): Promise<void>;
  close(): Promise<void>;
}

interface SessionRecord {
  id: string;
  seq: number;
  /** Dispatches sent in this session, for a resume's replay. */
  sent: { s: number; text: string }[];
}

export async function startDiscord(options: { heartbeatMs?: number } = {}): Promise<DiscordStandIn> {
  const heartbeatMs = options.heartbeatMs ?? 45_000;
  const botToken = `MTA.${randomUUID()}`;
  const requests: DiscordRequest[] = [];
  const messages: DiscordMessage[] = [];
  const posted = new Arrivals<DiscordMessage>();
  const callbacks: DiscordCallback[] = [];
  const connections: GatewayConnection[] = [];
  const sessions = new Map<string, SessionRecord>();
  const failures = new Map<string, DiscordFailure>();
  let snowflake = 1_180_000_000_000_000_000n;
  const nextId = () => String((snowflake += 1n));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/api\/v10/, '');
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? '';
      requests.push({ method, path, headers: req.headers, body });
      const reply = (status: number, answer?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(
          status,
          answer === undefined ? headers : { 'content-type': 'application/json', ...headers },
        );
        res.end(answer === undefined ? '' : JSON.stringify(answer));
      };
      const route = `${method} ${path}`;
      for (const [prefix, failure] of failures) {
        if (!route.startsWith(prefix)) continue;
        failures.delete(prefix);
        return reply(
          failure.status,
          failure.body ?? { message: 'You are being rate limited.' },
          failure.headers,
        );
      }
      const callback = /^POST \/interactions\/([^/]+)\/([^/]+)\/callback$/.exec(route);
      if (callback) {
        callbacks.push({
          interactionId: callback[1]!,
          token: callback[2]!,
          body: JSON.parse(body) as DiscordCallback['body'],
        });
        return reply(204);
      }
      if (req.headers.authorization !== `Bot ${botToken}`)
        return reply(401, { message: '401: Unauthorized', code: 0 });
      if (route === 'GET /gateway/bot') {
        const { port } = server.address() as AddressInfo;
        return reply(200, {
          url: `ws://127.0.0.1:${port}/gateway`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        });
      }
      const post = /^POST \/channels\/([0-9]+)\/messages$/.exec(route);
      if (post) {
        const sent = JSON.parse(body) as Pick<DiscordMessage, 'embeds' | 'components'>;
        const message: DiscordMessage = {
          id: nextId(),
          channel_id: post[1]!,
          embeds: sent.embeds,
          components: sent.components ?? [],
          history: [{ embeds: sent.embeds, components: sent.components ?? [] }],
        };
        messages.push(message);
        posted.add(message);
        return reply(200, {
          id: message.id,
          channel_id: message.channel_id,
          embeds: message.embeds,
          components: message.components,
        });
      }
      const patch = /^PATCH \/channels\/([0-9]+)\/messages\/([0-9]+)$/.exec(route);
      if (patch) {
        const message = messages.find(
          (candidate) => candidate.channel_id === patch[1] && candidate.id === patch[2],
        );
        if (message === undefined) return reply(404, { message: 'Unknown Message', code: 10008 });
        const edit = JSON.parse(body) as Partial<Pick<DiscordMessage, 'embeds' | 'components'>>;
        if (edit.embeds !== undefined) message.embeds = edit.embeds;
        if (edit.components !== undefined) message.components = edit.components;
        message.history.push({ embeds: message.embeds, components: message.components });
        return reply(200, { id: message.id, channel_id: message.channel_id });
      }
      reply(404, { message: '404: Not Found', code: 0 });
    });
  });

  const dispatch = (connection: GatewayConnection, type: string, data: unknown) => {
    const session = sessions.get(connection.sessionId ?? '');
    if (session === undefined) return;
    session.seq += 1;
    const text = JSON.stringify({ op: 0, t: type, s: session.seq, d: data });
    session.sent.push({ s: session.seq, text });
    connection.socket.send(text);
  };

  acceptWebSockets(
    server,
    (url) => url.startsWith('/gateway') || url.startsWith('/resume'),
    (socket) => {
      const connection: GatewayConnection = { socket };
      connections.push(connection);
      socket.send(JSON.stringify({ op: 10, s: null, t: null, d: { heartbeat_interval: heartbeatMs } }));
      let read = 0;
      const poll = setInterval(() => {
        if (!socket.isOpen()) return clearInterval(poll);
        while (read < socket.received.length) {
          const payload = JSON.parse(socket.received[read]!) as { op: number; d: Record<string, unknown> };
          read += 1;
          if (payload.op === 1) socket.send(JSON.stringify({ op: 11 }));
          if (payload.op === 2) {
            connection.opened = payload;
            if (payload.d['token'] !== botToken) return socket.close(4004);
            const session: SessionRecord = { id: randomUUID().replace(/-/g, ''), seq: 0, sent: [] };
            sessions.set(session.id, session);
            connection.sessionId = session.id;
            const { port } = server.address() as AddressInfo;
            dispatch(connection, 'READY', {
              v: 10,
              user: { id: '1180000000000000001', username: 'Notify', bot: true },
              guilds: [],
              session_id: session.id,
              resume_gateway_url: `ws://127.0.0.1:${port}/resume`,
              application: { id: '1180000000000000002', flags: 0 },
            });
          }
          if (payload.op === 6) {
            connection.opened = payload;
            const session = sessions.get(String(payload.d['session_id']));
            if (payload.d['token'] !== botToken) return socket.close(4004);
            if (session === undefined) return socket.send(JSON.stringify({ op: 9, d: false }));
            connection.sessionId = session.id;
            const after = Number(payload.d['seq']);
            for (const missed of session.sent.filter((sent) => sent.s > after)) socket.send(missed.text);
            dispatch(connection, 'RESUMED', {});
          }
        }
      }, 10);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const readyConnection = () =>
    waitFor(
      () =>
        [...connections].reverse().find((connection) => connection.socket.isOpen() && connection.sessionId),
      'a ready Gateway connection',
    );

  return {
    apiUrl: `http://127.0.0.1:${port}/api/v10`,
    botToken,
    requests,
    messages,
    callbacks,
    connections,
    failNext: (route, failure) => void failures.set(route, failure),
    readyConnection,
    message: (title) =>
      waitFor(
        () => messages.find((message) => message.embeds[0]?.title === title),
        `a Discord message "${title}"`,
      ),
    nextMessage: () => posted.next('a Discord message'),
    buttons: (message) =>
      message.components.flatMap((row) => row.components.map((button) => button.custom_id)),
    async press(message, customId, userId) {
      const connection = await readyConnection();
      const id = nextId();
      const token = `aW50ZXJhY3Rpb246${randomUUID()}`;
      dispatch(connection, 'INTERACTION_CREATE', {
        id,
        application_id: '1180000000000000002',
        type: 3,
        token,
        version: 1,
        guild_id: '1180000000000000003',
        channel_id: message.channel_id,
        member: { user: { id: userId, username: `user-${userId}` }, roles: [] },
        message: { id: message.id, channel_id: message.channel_id, components: message.components },
        data: { custom_id: customId, component_type: 2 },
      });
      return waitFor(
        () => callbacks.find((callback) => callback.interactionId === id),
        'the interaction callback',
      );
    },
    async askReconnect() {
      const connection = await readyConnection();
      connection.socket.send(JSON.stringify({ op: 7, d: null }));
    },
    close() {
      for (const connection of connections) connection.socket.close(1001);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
