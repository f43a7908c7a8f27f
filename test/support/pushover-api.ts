import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Pushover API, written from its reference (pushover.net/api and
 * pushover.net/api/receipts): POST /1/messages.json (form or JSON) checks the app token and user key
 * (400 with `"token": "invalid"` / `"user": "invalid"` and `errors`), validates the fields (message
 * required, priority -2..2, emergency priority needs retry >= 30 and expire <= 10800), answers
 * `{"status":1,"request"}` plus a 30-character `receipt` for priority 2, and sends the X-Limit-App-*
 * headers; GET /1/receipts/{receipt}.json?token= reports acknowledged / expired; POST
 * /1/receipts/{receipt}/cancel.json stops the repetition. A test can acknowledge a receipt as the app
 * does and make the next messages answer 429. Exported for benches: start, next message, acknowledge.
 */

export interface PushoverMessage {
  fields: Record<string, string>;
  receipt?: string;
  /** When the stand-in took it (ms). */
  at: number;
}

export interface PushoverReceipt {
  receipt: string;
  acknowledgedAt?: number;
  device?: string;
  cancelled: boolean;
  /** Each GET of this receipt, as times in ms: Pushover asks for no more than one every 5 s. */
  polls: number[];
}

export interface PushoverCall {
  method: string;
  path: string;
  status: number;
  at: number;
}

export interface PushoverApi {
  url: string;
  token: string;
  user: string;
  messages: PushoverMessage[];
  receipts: Map<string, PushoverReceipt>;
  calls: PushoverCall[];
  /** Resolves with the next message taken after this call. */
  nextMessage(): Promise<PushoverMessage>;
  /** The person acknowledges the emergency alert on a device, as the Pushover app does. */
  acknowledge(receipt: string, device: string): void;
  /** The next `count` messages are answered 429 (the app's monthly limit) with Retry-After seconds. */
  limitNext(count: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

const MIN_RETRY = 30;
const MAX_EXPIRE = 10_800;
const MONTHLY_LIMIT = 10_000;

function randomKey(): string {
  return randomBytes(30)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(30, 'x')
    .slice(0, 30);
}

function fieldsOf(request: IncomingMessage, text: string): Record<string, string> {
  if ((request.headers['content-type'] ?? '').startsWith('application/json')) {
    const value = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startPushoverApi(): Promise<PushoverApi> {
  const token = randomKey();
  const user = randomKey();
  const messages: PushoverMessage[] = [];
  const receipts = new Map<string, PushoverReceipt>();
  const calls: PushoverCall[] = [];
  const waiters: ((message: PushoverMessage) => void)[] = [];
  let limited = { count: 0, retryAfter: 0 };
  let used = 0;

  function answer(response: ServerResponse, call: PushoverCall, status: number, body: object): void {
    call.status = status;
    calls.push(call);
    response
      .writeHead(status, {
        'content-type': 'application/json',
        'x-limit-app-limit': String(MONTHLY_LIMIT),
        'x-limit-app-remaining': String(MONTHLY_LIMIT - used),
        'x-limit-app-reset': String(Math.floor(Date.now() / 1000) + 86_400),
        ...(status === 429 && { 'retry-after': String(limited.retryAfter) }),
      })
      .end(
        JSON.stringify({ ...body, status: status === 200 ? 1 : 0, request: randomBytes(16).toString('hex') }),
      );
  }

  function invalid(response: ServerResponse, call: PushoverCall, field: string, error: string): void {
    answer(response, call, 400, { [field]: 'invalid', errors: [error] });
  }

  function message(response: ServerResponse, call: PushoverCall, fields: Record<string, string>): void {
    if (limited.count > 0) {
      limited.count -= 1;
      return answer(response, call, 429, { errors: ['message limit reached'] });
    }
    if (fields['token'] !== token) return invalid(response, call, 'token', 'application token is invalid');
    if (fields['user'] !== user)
      return invalid(response, call, 'user', 'user identifier is not a valid user');
    if (!fields['message']) return invalid(response, call, 'message', 'message cannot be blank');
    const priority = Number(fields['priority'] ?? '0');
    if (!Number.isInteger(priority) || priority < -2 || priority > 2)
      return invalid(response, call, 'priority', 'priority is invalid');
    let receipt: string | undefined;
    if (priority === 2) {
      const retry = Number(fields['retry']);
      const expire = Number(fields['expire']);
      if (!(retry >= MIN_RETRY)) return invalid(response, call, 'retry', 'retry must be at least 30 seconds');
      if (!(expire > 0 && expire <= MAX_EXPIRE))
        return invalid(response, call, 'expire', 'expire must be at most 10800 seconds');
      receipt = randomKey();
      receipts.set(receipt, { receipt, cancelled: false, polls: [] });
    }
    used += 1;
    const taken: PushoverMessage = { fields, at: Date.now(), ...(receipt !== undefined && { receipt }) };
    messages.push(taken);
    waiters.splice(0).forEach((wake) => wake(taken));
    answer(response, call, 200, receipt === undefined ? {} : { receipt });
  }

  function receiptCall(
    response: ServerResponse,
    call: PushoverCall,
    id: string,
    cancel: boolean,
    fields: Record<string, string>,
  ): void {
    if (fields['token'] !== token) return invalid(response, call, 'token', 'application token is invalid');
    const found = receipts.get(id);
    if (found === undefined)
      return answer(response, call, 404, { receipt: 'not found', errors: ['receipt not found'] });
    if (cancel) {
      found.cancelled = true;
      return answer(response, call, 200, {});
    }
    found.polls.push(call.at);
    const acked = found.acknowledgedAt !== undefined;
    answer(response, call, 200, {
      acknowledged: acked ? 1 : 0,
      acknowledged_at: acked ? Math.floor(found.acknowledgedAt! / 1000) : 0,
      acknowledged_by: acked ? user : '',
      acknowledged_by_device: found.device ?? '',
      last_delivered_at: Math.floor(Date.now() / 1000),
      expired: found.cancelled ? 1 : 0,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      called_back: 0,
      called_back_at: 0,
    });
  }

  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const call: PushoverCall = {
        method: request.method ?? '',
        path: url.pathname,
        status: 0,
        at: Date.now(),
      };
      let fields: Record<string, string>;
      try {
        fields = fieldsOf(request, text);
      } catch {
        return answer(response, call, 400, { errors: ['malformed body'] });
      }
      const poll = /^\/1\/receipts\/([A-Za-z0-9]+)\.json$/.exec(url.pathname);
      const cancel = /^\/1\/receipts\/([A-Za-z0-9]+)\/cancel\.json$/.exec(url.pathname);
      if (request.method === 'POST' && url.pathname === '/1/messages.json')
        return message(response, call, fields);
      if (request.method === 'GET' && poll)
        return receiptCall(response, call, poll[1]!, false, Object.fromEntries(url.searchParams));
      if (request.method === 'POST' && cancel) return receiptCall(response, call, cancel[1]!, true, fields);
      answer(response, call, 404, { errors: ['not found'] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    user,
    messages,
    receipts,
    calls,
    nextMessage: () => new Promise((resolve) => waiters.push(resolve)),
    acknowledge(receipt, device) {
      const found = receipts.get(receipt);
      if (found === undefined) throw new Error(`no receipt ${receipt}`);
      found.acknowledgedAt = Date.now();
      found.device = device;
    },
    limitNext(count, retryAfterSeconds) {
      limited = { count, retryAfter: retryAfterSeconds };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
