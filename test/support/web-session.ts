import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBroker, type BrokerProcess, type StartOptions } from './broker-process.js';

/** The broker entry point with a clock the test moves (web-broker-main.ts). */
export const WEB_BROKER = fileURLToPath(new URL('./web-broker-main.js', import.meta.url));

/** A broker whose clock `advance` moves forward. */
export interface ClockedBroker extends BrokerProcess {
  advance(ms: number): void;
  clockFile: string;
}

export async function startClockedBroker(
  options: StartOptions & { webRoot?: string; clockFile?: string } = {},
): Promise<ClockedBroker> {
  const clockFile = options.clockFile ?? join(mkdtempSync(join(tmpdir(), 'notify-clock-')), 'offset');
  let offset = 0;
  writeFileSync(clockFile, '0');
  const broker = await startBroker({
    ...options,
    script: WEB_BROKER,
    env: {
      ...options.env,
      NOTIFY_TEST_CLOCK_FILE: clockFile,
      ...(options.webRoot !== undefined && { NOTIFY_TEST_WEB_ROOT: options.webRoot }),
    },
  });
  return Object.assign(broker, {
    clockFile,
    advance(ms: number) {
      offset += ms;
      writeFileSync(clockFile, String(offset));
    },
  });
}

/** Asks for a one-time sign-in link with the token. */
export async function loginUrl(broker: BrokerProcess): Promise<string> {
  const response = await broker.request('POST', '/v1/web/login-codes');
  if (response.status !== 201) throw new Error(`login-codes answered ${response.status}`);
  return ((await response.json()) as { url: string }).url;
}

/** Follows a sign-in link as a browser would, without following the redirect. */
export function visit(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

/** Signs in through a fresh link; the `Cookie` header value of the new session. */
export async function signIn(broker: BrokerProcess): Promise<string> {
  const response = await visit(await loginUrl(broker));
  const cookie = response.headers.get('set-cookie');
  if (response.status !== 303 || cookie === null) throw new Error(`sign-in answered ${response.status}`);
  return cookie.split(';')[0]!;
}

/** A request as the page makes it: the cookie, no token. */
export function asPage(
  broker: BrokerProcess,
  cookie: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${broker.baseUrl}${path}`, {
    method,
    headers: {
      cookie,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && {
      body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    }),
  });
}

/** The page's CSRF token and the headers a state-changing request of the page carries. */
export async function pageHeaders(broker: BrokerProcess, cookie: string): Promise<Record<string, string>> {
  const session = (await (await asPage(broker, cookie, 'GET', '/v1/web/session')).json()) as {
    csrfToken: string;
  };
  return { origin: broker.baseUrl, 'x-csrf-token': session.csrfToken };
}

/** A folder laid out as `npm run build` writes dist/web. */
export function builtPage(): string {
  const root = mkdtempSync(join(tmpdir(), 'notify-web-'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><title>Notify</title><script src="/assets/app-abc123.js"></script>\n',
  );
  const assets = join(root, 'assets');
  mkdirSync(assets);
  writeFileSync(join(assets, 'app-abc123.js'), 'console.log("page");\n');
  writeFileSync(join(assets, 'app-abc123.css'), 'body{color:black}\n');
  return root;
}
