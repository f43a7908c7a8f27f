import type { Dispatcher, EnvHttpProxyAgent as ProxyAgent } from 'undici';
import { classifyNetworkError, classifyStatus } from './classify.js';
import type { DeliveryResult } from './provider.js';

/**
 * The one way a provider talks HTTP. It honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY and their
 * lower-case forms (the lower-case one wins when both are set) through undici's EnvHttpProxyAgent;
 * cuts the attempt when the context's signal aborts; follows a redirect only within the same origin (a
 * redirect elsewhere could carry credentials to a host the user never named); and classifies the answer.
 * undici is loaded with the first request, so a broker that delivers nothing never holds it in memory.
 */

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string;
}

export interface HttpAnswer {
  result: DeliveryResult;
  /**
   * The response body (at most MAX_BODY_BYTES): of a delivered request, for references like a message
   * id; of a refused one, for services that say why in it (Discord's and Telegram's `retry_after`,
   * Telegram's `message is not modified`).
   */
  body?: string;
}

const MAX_REDIRECTS = 5;
const MAX_BODY_BYTES = 64 * 1024;

export const PROXY_VARIABLES = [
  'HTTP_PROXY',
  'http_proxy',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
];

let cachedAgent: { key: string; agent: Dispatcher } | undefined;

/** One agent per proxy environment, so connections are reused and a changed environment is noticed. */
function proxyAgent(EnvHttpProxyAgent: typeof ProxyAgent): Dispatcher {
  const env = process.env;
  // Every form, whichever undici prefers when both are set, so that a change to either is noticed.
  const key = PROXY_VARIABLES.map((name) => env[name] ?? '').join('\n');
  if (cachedAgent?.key !== key) {
    const previous = cachedAgent?.agent;
    cachedAgent = { key, agent: new EnvHttpProxyAgent() };
    void previous?.close().catch(() => undefined);
  }
  return cachedAgent.agent;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size + buffer.length > MAX_BODY_BYTES) {
      chunks.push(buffer.subarray(0, MAX_BODY_BYTES - size));
      body.destroy();
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `dispatcher` replaces the shared proxy-aware one (the relay's, whose connections are checked). */
export async function sendHttp(
  outbound: OutboundRequest,
  signal: AbortSignal,
  options: { dispatcher?: Dispatcher } = {},
): Promise<HttpAnswer> {
  const first = parseUrl(outbound.url);
  if (first === undefined) return { result: { outcome: 'reject', reason: 'invalid_url' } };
  const { EnvHttpProxyAgent, request } = await import('undici');
  let target: URL = first;
  const origin = target.origin;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(target, {
        method: outbound.method,
        headers: outbound.headers,
        body: outbound.body,
        signal,
        dispatcher: options.dispatcher ?? proxyAgent(EnvHttpProxyAgent),
      });
    } catch (error) {
      return { result: classifyNetworkError(error, signal.aborted) };
    }
    const status = response.statusCode;
    if (status >= 300 && status < 400) {
      await response.body.dump().catch(() => undefined);
      const location = headerValue(response.headers.location);
      const next: URL | undefined =
        location === undefined ? undefined : parseUrl(new URL(location, target).href);
      if (next === undefined) return { result: { outcome: 'reject', reason: `http_${status}`, status } };
      if (next.origin !== origin)
        return { result: { outcome: 'reject', reason: 'redirect_cross_host', status } };
      target = next;
      continue;
    }
    const result = classifyStatus(status, headerValue(response.headers['retry-after']), Date.now());
    try {
      return { result, body: await readLimited(response.body) };
    } catch {
      return { result };
    }
  }
  return { result: { outcome: 'reject', reason: 'too_many_redirects' } };
}
