/**
 * A browser stand-in for the relay's pages over plain HTTP: keeps cookies, reads the CSRF token from
 * each page, posts forms. The Chromium tests drive the same pages in a real browser.
 */
import assert from 'node:assert/strict';
import { Agent, fetch as undiciFetch } from 'undici';
import type { RelayProcess } from './relay-process.js';
import { waitFor } from './wait-for.js';

export const OPERATOR = { username: 'ada', password: 'correct horse battery' };

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
}

export class WebSession {
  readonly cookies = new Map<string, string>();
  csrf = '';
  private readonly fetch: typeof fetch;

  /** localAddress: the loopback address this browser connects from (127.0.0.2: another client); ca: trust for HTTPS. */
  constructor(
    readonly relay: Pick<RelayProcess, 'url'>,
    options: { localAddress?: string; ca?: Buffer } = {},
  ) {
    const dispatcher =
      options.localAddress || options.ca
        ? new Agent({
            ...(options.localAddress && { localAddress: options.localAddress }),
            ...(options.ca && { connect: { ca: options.ca } }),
          })
        : undefined;
    this.fetch = dispatcher
      ? (input, init) =>
          undiciFetch(input as string, { ...(init as object), dispatcher }) as unknown as Promise<Response>
      : fetch;
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<PageResponse> {
    const response = await this.fetch(new URL(path, this.relay.url), {
      headers: { cookie: this.cookieHeader() },
      redirect: 'manual',
    });
    this.remember(response);
    const text = await response.text();
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(text)?.[1];
    if (csrf) this.csrf = csrf;
    return { status: response.status, headers: response.headers, text };
  }

  async post(
    path: string,
    fields: Record<string, string>,
    extraHeaders: Record<string, string> = {},
  ): Promise<PageResponse> {
    const response = await this.fetch(new URL(path, this.relay.url), {
      method: 'POST',
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        ...extraHeaders,
      },
      body: new URLSearchParams({ csrf: this.csrf, ...fields }).toString(),
      redirect: 'manual',
    });
    this.remember(response);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** A JSON call of the inbox API with this session's cookie and CSRF token. */
  async inbox(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    csrf: string | undefined = this.csrf,
  ) {
    const response = await this.fetch(new URL(path, this.relay.url), {
      method,
      headers: {
        cookie: this.cookieHeader(),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(csrf !== undefined && { 'x-csrf-token': csrf }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }
}

/** The operator account through the printed setup link; the session is signed in afterwards. */
export async function setUpOperator(
  relay: Pick<RelayProcess, 'url' | 'setupUrl'>,
  web = new WebSession(relay),
): Promise<WebSession> {
  await waitFor(() => relay.setupUrl, "the setup link on notify-relay's output");
  const setupPath = new URL(relay.setupUrl!).pathname + new URL(relay.setupUrl!).search;
  const form = await web.get(setupPath);
  assert.equal(form.status, 200, form.text);
  const done = await web.post('/setup', {
    token: new URL(relay.setupUrl!).searchParams.get('token')!,
    username: OPERATOR.username,
    password: OPERATOR.password,
    password_again: OPERATOR.password,
  });
  assert.equal(done.status, 303, done.text);
  await web.get('/inbox');
  return web;
}

export interface Pairing {
  pairing_id: string;
  user_code: string;
  poll_secret: string;
  verification_uri: string;
  verification_uri_complete: string;
  interval: number;
  expires_in: number;
}

export async function api(
  relay: Pick<RelayProcess, 'url'>,
  method: string,
  path: string,
  options: { bearer?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, relay.url), {
    method,
    headers: {
      ...(options.bearer !== undefined && { authorization: `Bearer ${options.bearer}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** A new pairing request, in a fresh minute so the pairing limit (10 a minute per address) never trips across tests. */
export async function createPairing(
  relay: Pick<RelayProcess, 'url' | 'advance'>,
  senderName = 'ada-laptop',
): Promise<Pairing> {
  relay.advance(61_000);
  const created = await api(relay, 'POST', '/v1/pairings', {
    body: { sender_name: senderName, client: 'notify/0.1.0' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as unknown as Pairing;
}

/** One poll, the relay's clock moved past the interval first so it is never too fast. */
export async function pollOnTime(
  relay: Pick<RelayProcess, 'url' | 'advance'>,
  pairing: Pairing,
  interval = pairing.interval,
) {
  relay.advance(interval * 1000);
  return api(relay, 'POST', `/v1/pairings/${pairing.pairing_id}/poll`, { bearer: pairing.poll_secret });
}

/** Approves (or rejects) a pairing on the page, as its person does. */
export async function decide(
  web: WebSession,
  pairing: Pairing,
  decision: 'approve' | 'reject',
): Promise<void> {
  const page = await web.get(`/pair?code=${pairing.user_code}`);
  assert.equal(page.status, 200, page.text);
  const pairingId = /name="pairing_id" value="([^"]+)"/.exec(page.text)?.[1];
  assert.equal(pairingId, pairing.pairing_id);
  const result = await web.post('/pair', { pairing_id: pairingId!, decision });
  assert.equal(result.status, 200, result.text);
}

/** A full pairing: the credential and installation of a new sender. */
export async function pairSender(
  relay: Pick<RelayProcess, 'url' | 'advance'>,
  web: WebSession,
  senderName = 'ada-laptop',
): Promise<{ credential: string; installation: { id: string; name: string } }> {
  const pairing = await createPairing(relay, senderName);
  await decide(web, pairing, 'approve');
  const polled = await pollOnTime(relay, pairing);
  assert.equal(polled.body['status'], 'approved', JSON.stringify(polled.body));
  return polled.body as unknown as { credential: string; installation: { id: string; name: string } };
}

export function delivered(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Run this?',
    message: 'npm publish',
    type: 'permission_required',
    priority: 'high',
    agent: 'claude-code',
    project: 'notify',
    status: 'active',
    actions: [
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'Deny' },
    ],
    created_at: '2026-11-25T17:42:00.000Z',
    updated_at: '2026-11-25T17:42:00.000Z',
    ...overrides,
  };
}

let keys = 0;
export async function deliver(
  relay: Pick<RelayProcess, 'url'>,
  credential: string,
  id: string,
  body: Record<string, unknown>,
  key = `key-${++keys}-${Date.now()}`,
) {
  return api(relay, 'PUT', `/v1/notifications/${id}`, {
    bearer: credential,
    body,
    headers: { 'idempotency-key': key },
  });
}
