import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from './arrivals.js';
import { waitFor } from './wait-for.js';
import { acceptWebSockets, type ServerSocket } from './websocket-server.js';

/**
 * A stand-in for Slack, written from its published reference: the Web API methods Notify calls
 * (chat.postMessage, chat.update, chat.postEphemeral, apps.connections.open: JSON over POST with a
 * bearer token, HTTP 200 with `ok: false` and an error name on failure, 429 with Retry-After) and
 * Socket Mode over a real WebSocket (`hello`, envelopes acknowledged with their `envelope_id`,
 * `interactive` envelopes carrying `block_actions`, `disconnect`). A benchmark uses it as well:
 * start it, await the next message, press a button.
 */

export interface SlackPost {
  channel: string;
  ts: string;
  text: string;
  blocks: SlackBlock[];
  /** Every version the message had, first the posted one. */
  history: { text: string; blocks: SlackBlock[] }[];
}

export interface SlackBlock {
  type: string;
  text?: { text: string };
  elements?: { type?: string; text?: string | { text: string }; value?: string; action_id?: string }[];
}

export interface SlackCallRecord {
  method: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface SlackEphemeral {
  channel: string;
  user: string;
  text: string;
}

export interface SlackFailure {
  status: number;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
}

export interface SlackStandIn {
  /** The Web API base, the provider's `apiUrl`. */
  apiUrl: string;
  botToken: string;
  appToken: string;
  calls: SlackCallRecord[];
  posts: SlackPost[];
  ephemerals: SlackEphemeral[];
  /** Every Socket Mode connection opened, oldest first. */
  sockets: ServerSocket[];
  /** The next call of `method` is answered with this instead. */
  failNext(method: string, failure: SlackFailure): void;
  /** The open Socket Mode connection that said hello last. */
  openSocket(): Promise<ServerSocket>;
  /** The message whose text holds `text`, once posted. */
  message(text: string): Promise<SlackPost>;
  /** The next message posted (the first one not yet taken), the moment it is posted. */
  nextMessage(): Promise<SlackPost>;
  /** The buttons' values of a message's actions block, in order (empty when it has none). */
  buttons(post: SlackPost): string[];
  /** A person presses a button with this value on the message; resolves once the broker acknowledged it. */
  press(post: SlackPost, value: string, userId: string): Promise<void>;
  /** Slack asks the client to reconnect (`refresh_requested`, `warning`, `link_disabled`). */
  disconnect(reason: string): Promise<void>;
  close(): Promise<void>;
}

function buttonsOf(post: SlackPost): string[] {
  const actions = post.blocks.find((block) => block.type === 'actions');
  return (actions?.elements ?? []).map((element) => element.value ?? '');
}

export async function startSlack(): Promise<SlackStandIn> {
  const botToken = `xoxb-${randomUUID()}`;
  const appToken = `xapp-1-${randomUUID()}`;
  const calls: SlackCallRecord[] = [];
  const posts: SlackPost[] = [];
  const posted = new Arrivals<SlackPost>();
  const ephemerals: SlackEphemeral[] = [];
  const sockets: ServerSocket[] = [];
  const failures = new Map<string, SlackFailure>();
  let sequence = 0;
  let ticket = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        body = {};
      }
      calls.push({ method, headers: req.headers, body });
      const reply = (
        status: number,
        answer: Record<string, unknown>,
        headers: Record<string, string> = {},
      ) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(answer));
      };
      const failure = failures.get(method);
      if (failure !== undefined) {
        failures.delete(method);
        return reply(failure.status, failure.body ?? { ok: false, error: 'ratelimited' }, failure.headers);
      }
      const token = method === 'apps.connections.open' ? appToken : botToken;
      if (req.headers.authorization !== `Bearer ${token}`)
        return reply(200, { ok: false, error: 'invalid_auth' });
      if (method === 'apps.connections.open') {
        ticket += 1;
        const { port } = server.address() as AddressInfo;
        return reply(200, { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=A0NOTIFY` });
      }
      if (method === 'chat.postMessage') {
        sequence += 1;
        const channel = String(body['channel']);
        if (!/^[CDGU][A-Z0-9]+$/.test(channel)) return reply(200, { ok: false, error: 'channel_not_found' });
        const ts = `${Math.floor(Date.now() / 1000)}.${String(sequence).padStart(6, '0')}`;
        const text = String(body['text'] ?? '');
        const blocks = (body['blocks'] ?? []) as SlackBlock[];
        const post = { channel, ts, text, blocks, history: [{ text, blocks }] };
        posts.push(post);
        posted.add(post);
        return reply(200, { ok: true, channel, ts, message: { type: 'message', text, ts, blocks } });
      }
      if (method === 'chat.update') {
        const post = posts.find(
          (candidate) => candidate.channel === body['channel'] && candidate.ts === body['ts'],
        );
        if (post === undefined) return reply(200, { ok: false, error: 'message_not_found' });
        post.text = String(body['text'] ?? '');
        post.blocks = (body['blocks'] ?? []) as SlackBlock[];
        post.history.push({ text: post.text, blocks: post.blocks });
        return reply(200, { ok: true, channel: post.channel, ts: post.ts, text: post.text });
      }
      if (method === 'chat.postEphemeral') {
        ephemerals.push({
          channel: String(body['channel']),
          user: String(body['user']),
          text: String(body['text']),
        });
        return reply(200, { ok: true, message_ts: `${Math.floor(Date.now() / 1000)}.999999` });
      }
      reply(200, { ok: false, error: 'unknown_method' });
    });
  });
  acceptWebSockets(
    server,
    (url) => url.startsWith('/link/'),
    (socket) => {
      sockets.push(socket);
      socket.send(
        JSON.stringify({
          type: 'hello',
          num_connections: sockets.filter((candidate) => candidate.isOpen()).length,
          debug_info: { host: 'applink-stand-in', approximate_connection_time: 18060 },
          connection_info: { app_id: 'A0NOTIFY' },
        }),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const openSocket = () =>
    waitFor(() => [...sockets].reverse().find((socket) => socket.isOpen()), 'an open Socket Mode connection');

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    botToken,
    appToken,
    calls,
    posts,
    ephemerals,
    sockets,
    failNext: (method, failure) => void failures.set(method, failure),
    openSocket,
    message: (text) =>
      waitFor(() => posts.find((post) => post.text.includes(text)), `a Slack message with ${text}`),
    nextMessage: () => posted.next('a Slack message'),
    buttons: buttonsOf,
    async press(post, value, userId) {
      const socket = await openSocket();
      const envelopeId = randomUUID();
      const actionIndex = buttonsOf(post).indexOf(value);
      socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type: 'interactive',
          accepts_response_payload: false,
          payload: {
            type: 'block_actions',
            user: { id: userId, username: userId.toLowerCase(), team_id: 'T0NOTIFY' },
            api_app_id: 'A0NOTIFY',
            container: {
              type: 'message',
              message_ts: post.ts,
              channel_id: post.channel,
              is_ephemeral: false,
            },
            trigger_id: `${Date.now()}.trigger`,
            team: { id: 'T0NOTIFY', domain: 'notify' },
            channel: { id: post.channel, name: 'agents' },
            message: { type: 'message', ts: post.ts, text: post.text, blocks: post.blocks },
            response_url: `http://127.0.0.1:${port}/actions/response`,
            actions: [
              {
                type: 'button',
                action_id: `notify_answer_${actionIndex}`,
                block_id: 'notify_answers',
                value,
                action_ts: `${Date.now() / 1000}`,
              },
            ],
          },
        }),
      );
      await waitFor(
        () =>
          socket.received.some(
            (text) => (JSON.parse(text) as { envelope_id?: string }).envelope_id === envelopeId,
          ),
        'the acknowledgement of the button press',
      );
    },
    async disconnect(reason) {
      const socket = await openSocket();
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-stand-in' } }));
    },
    close() {
      for (const socket of sockets) socket.close(1001);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
