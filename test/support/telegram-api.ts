import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Arrivals } from './arrivals.js';
import { within } from './wait-for.js';

/**
 * A Telegram Bot API server for the tests (https://core.telegram.org/bots/api), the subset Notify
 * uses: sendMessage, editMessageText, getUpdates with real long polling (offset confirms, timeout
 * waits, allowed_updates filters, a second poller gets 409), answerCallbackQuery. Requests go to
 * /bot<token>/<method>; a wrong token gets 401 as from Telegram. A test presses buttons as a person
 * would (a callback_query update), makes methods fail (429 with parameters.retry_after) and reads
 * what the chat shows. Exported for benches too: start, next message, press.
 */

export interface InlineButton {
  text: string;
  callback_data: string;
}

export interface ChatMessageState {
  message_id: number;
  chat_id: string;
  text: string;
  buttons: InlineButton[];
  /** Every text it had, the first from sendMessage. */
  history: string[];
}

export interface BotCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  /** Where in the URL the token stood, for checking nothing else was sent instead. */
  token: string;
  /** The status of a failure the test asked for (failNext). */
  failedWith?: number;
}

export interface TelegramApi {
  url: string;
  token: string;
  calls: BotCall[];
  messages: Map<number, ChatMessageState>;
  /** Resolves with the next message sent after this call (or the first one not yet awaited). */
  nextMessage(): Promise<ChatMessageState>;
  /**
   * A person presses a button: a callback_query update from `fromUserId` in the message's chat, with
   * the button's callback_data (or `data`, as an older client that still showed it would send).
   * Resolves with the callback query's id.
   */
  press(messageId: number, buttonIndex: number, fromUserId: number, data?: string): string;
  /** The answerCallbackQuery of that query, once it came. */
  acknowledgement(callbackQueryId: string): Promise<{ text: string; show_alert: boolean }>;
  /** The next `count` calls of `method` fail with this status (429: with retry_after seconds). */
  failNext(method: string, status: number, count?: number, retryAfter?: number): void;
  /** Resolves when a getUpdates call is waiting (a long poll is open). */
  pollOpen(): Promise<void>;
  close(): Promise<void>;
}

interface Waiter {
  offset: number;
  allowed: string[] | undefined;
  response: ServerResponse;
  timer: NodeJS.Timeout;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden: bot was blocked by the user',
  409: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export async function startTelegramApi(token = '123456789:AAtest-token_for_stand-in'): Promise<TelegramApi> {
  const calls: BotCall[] = [];
  const messages = new Map<number, ChatMessageState>();
  const updates: { update_id: number; callback_query: Record<string, unknown> }[] = [];
  const acknowledgements = new Map<string, { text: string; show_alert: boolean }>();
  const failures = new Map<string, { status: number; count: number; retryAfter?: number }>();
  let nextMessageId = 100;
  let nextUpdateId = 5000;
  let nextQueryId = 1;
  let waiter: Waiter | undefined;
  const sent = new Arrivals<ChatMessageState>();
  const watchers: (() => void)[] = [];

  const notify = () => {
    for (const watcher of watchers.splice(0)) watcher();
  };
  const reply = (response: ServerResponse, status: number, body: unknown) => {
    if (response.destroyed || response.writableEnded) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const fail = (response: ServerResponse, status: number, retryAfter?: number) =>
    reply(response, status, {
      ok: false,
      error_code: status,
      description: DESCRIPTIONS[status] ?? 'Error',
      ...(retryAfter !== undefined && { parameters: { retry_after: retryAfter } }),
    });
  const pending = (offset: number, allowed: string[] | undefined) =>
    updates.filter(
      (update) =>
        update.update_id >= offset &&
        (allowed === undefined || allowed.length === 0 || allowed.includes('callback_query')),
    );
  const flushWaiter = () => {
    if (waiter === undefined) return;
    const ready = pending(waiter.offset, waiter.allowed);
    if (ready.length === 0) return;
    const { response, timer } = waiter;
    clearTimeout(timer);
    waiter = undefined;
    reply(response, 200, { ok: true, result: ready });
  };
  const buttonsOf = (markup: unknown): InlineButton[] =>
    ((markup as { inline_keyboard?: InlineButton[][] } | undefined)?.inline_keyboard ?? []).flat();

  const methods: Record<string, (params: Record<string, unknown>, response: ServerResponse) => void> = {
    sendMessage: (params, response) => {
      const message: ChatMessageState = {
        message_id: nextMessageId++,
        chat_id: String(params['chat_id']),
        text: String(params['text']),
        buttons: buttonsOf(params['reply_markup']),
        history: [String(params['text'])],
      };
      messages.set(message.message_id, message);
      sent.add(message);
      reply(response, 200, {
        ok: true,
        result: {
          message_id: message.message_id,
          chat: { id: Number(message.chat_id) },
          date: 0,
          text: message.text,
        },
      });
      notify();
    },
    editMessageText: (params, response) => {
      const message = messages.get(Number(params['message_id']));
      if (message === undefined || message.chat_id !== String(params['chat_id']))
        return reply(response, 400, {
          ok: false,
          error_code: 400,
          description: 'Bad Request: message to edit not found',
        });
      const text = String(params['text']);
      const buttons = buttonsOf(params['reply_markup']);
      if (text === message.text && JSON.stringify(buttons) === JSON.stringify(message.buttons))
        return reply(response, 400, {
          ok: false,
          error_code: 400,
          description:
            'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        });
      message.text = text;
      message.buttons = buttons;
      message.history.push(text);
      reply(response, 200, { ok: true, result: { message_id: message.message_id, text } });
      notify();
    },
    answerCallbackQuery: (params, response) => {
      acknowledgements.set(String(params['callback_query_id']), {
        text: String(params['text'] ?? ''),
        show_alert: params['show_alert'] === true,
      });
      reply(response, 200, { ok: true, result: true });
      notify();
    },
    getUpdates: (params, response) => {
      const offset = typeof params['offset'] === 'number' ? params['offset'] : 0;
      // An offset confirms every update before it: they are gone for good.
      for (let i = updates.length - 1; i >= 0; i -= 1)
        if (updates[i]!.update_id < offset) updates.splice(i, 1);
      const allowed = Array.isArray(params['allowed_updates'])
        ? (params['allowed_updates'] as string[])
        : undefined;
      if (waiter !== undefined) {
        clearTimeout(waiter.timer);
        fail(waiter.response, 409);
        waiter = undefined;
      }
      const ready = pending(offset, allowed);
      const timeout = typeof params['timeout'] === 'number' ? params['timeout'] : 0;
      if (ready.length > 0 || timeout <= 0) return reply(response, 200, { ok: true, result: ready });
      const current: Waiter = {
        offset,
        allowed,
        response,
        timer: setTimeout(() => {
          if (waiter === current) waiter = undefined;
          reply(response, 200, { ok: true, result: [] });
        }, timeout * 1000),
      };
      waiter = current;
      // The poller went away (a restart): its poll is no longer open.
      response.on('close', () => {
        if (waiter === current) {
          clearTimeout(current.timer);
          waiter = undefined;
        }
      });
      notify();
    },
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      if (!match) return fail(response, 404);
      const [, given, method] = match as unknown as [string, string, string];
      let params: Record<string, unknown>;
      try {
        const text = Buffer.concat(chunks).toString();
        params = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        return fail(response, 400);
      }
      const call: BotCall = { method, params, at: Date.now(), token: given };
      calls.push(call);
      if (given !== token) return fail(response, 401);
      const failure = failures.get(method);
      if (failure !== undefined && failure.count > 0) {
        failure.count -= 1;
        call.failedWith = failure.status;
        return fail(response, failure.status, failure.retryAfter);
      }
      const handler = methods[method];
      if (handler === undefined) return fail(response, 404);
      handler(params, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (condition() ? resolve() : watchers.push(check));
      check();
    });

  return {
    url,
    token,
    calls,
    messages,
    nextMessage: () => sent.next('a message in the chat'),
    press: (messageId, buttonIndex, fromUserId, data) => {
      const message = messages.get(messageId);
      if (message === undefined) throw new Error(`no message ${messageId}`);
      const id = `cq${nextQueryId++}`;
      updates.push({
        update_id: nextUpdateId++,
        callback_query: {
          id,
          from: { id: fromUserId, is_bot: false, first_name: 'Tester' },
          chat_instance: 'ci1',
          data: data ?? message.buttons[buttonIndex]!.callback_data,
          message: {
            message_id: message.message_id,
            chat: { id: Number(message.chat_id), type: Number(message.chat_id) > 0 ? 'private' : 'group' },
            date: 0,
            text: message.text,
            reply_markup: { inline_keyboard: message.buttons.map((button) => [button]) },
          },
        },
      });
      flushWaiter();
      return id;
    },
    acknowledgement: async (callbackQueryId) => {
      await within(
        until(() => acknowledgements.has(callbackQueryId)),
        `the answer to callback query ${callbackQueryId}`,
      );
      return acknowledgements.get(callbackQueryId)!;
    },
    failNext: (method, status, count = 1, retryAfter) => {
      failures.set(method, { status, count, ...(retryAfter !== undefined && { retryAfter }) });
    },
    pollOpen: () =>
      within(
        until(() => waiter !== undefined),
        'an open getUpdates',
      ),
    close: () =>
      new Promise((resolve) => {
        if (waiter) clearTimeout(waiter.timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
