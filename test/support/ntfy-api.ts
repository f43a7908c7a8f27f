import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An ntfy server for the tests (https://docs.ntfy.sh/publish/), the subset Notify uses: JSON publishing
 * (POST / with the topic in the body), a message with the same `sequence_id` replacing the earlier one
 * as the app shows it (ntfy 2.16 "updating notifications"), and `PUT /<topic>/<sequence id>/clear`. A
 * test then presses an `http` action button as the ntfy app does on the phone: the action's method,
 * headers and body, sent to its URL. Exported for benches too: start, next message, press.
 */

/** An ntfy `http` action as published (docs.ntfy.sh/publish/#action-buttons). */
export interface NtfyAction {
  action: string;
  label: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  clear?: boolean;
}

export interface NtfyMessage {
  topic: string;
  sequenceId: string;
  title: string;
  message: string;
  actions: NtfyAction[];
  /** Whether a clear for its sequence id came after it. */
  cleared: boolean;
}

export interface NtfyApi {
  url: string;
  /** Every message published, in order (a replacement is a new entry with the same sequence id). */
  published: NtfyMessage[];
  /** What the app shows for a sequence id now: the last message published with it. */
  shown(sequenceId: string): NtfyMessage | undefined;
  /** Resolves with the next message published after this call. */
  nextMessage(): Promise<NtfyMessage>;
  /** Presses a button of a message as the ntfy app does; resolves with the answer it got. */
  press(message: NtfyMessage, label: string): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startNtfyApi(): Promise<NtfyApi> {
  const published: NtfyMessage[] = [];
  const waiters: ((message: NtfyMessage) => void)[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const clear = /^\/([-_A-Za-z0-9]{1,64})\/([-_A-Za-z0-9]{1,64})\/clear$/.exec(request.url ?? '');
      if (request.method === 'PUT' && clear) {
        for (const message of published)
          if (message.topic === clear[1] && message.sequenceId === clear[2]) message.cleared = true;
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (request.method !== 'POST' || request.url !== '/') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":40401}');
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":40024}');
        return;
      }
      const actions = (body['actions'] as NtfyAction[] | undefined) ?? [];
      // ntfy refuses more than 3 actions (error 40018), as it would refuse a malformed one.
      if (actions.length > 3) {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":40018}');
        return;
      }
      const message: NtfyMessage = {
        topic: String(body['topic']),
        sequenceId: String(body['sequence_id'] ?? ''),
        title: String(body['title'] ?? ''),
        message: String(body['message'] ?? ''),
        actions,
        cleared: false,
      };
      published.push(message);
      waiters.splice(0).forEach((resolve) => resolve(message));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'm' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    published,
    shown: (sequenceId) => published.filter((message) => message.sequenceId === sequenceId).at(-1),
    nextMessage: () => new Promise((resolve) => waiters.push(resolve)),
    async press(message, label) {
      const action = message.actions.find((candidate) => candidate.label === label);
      if (action?.action !== 'http') throw new Error(`no http button ${label} on the message`);
      const response = await fetch(action.url, {
        method: action.method ?? 'POST',
        headers: action.headers ?? {},
        ...(action.body !== undefined && { body: action.body }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
