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
export async function loginUrl(broker: Pick<BrokerProcess, 'request'>): Promise<string> {
  const response = await broker.request('POST', '/v1/web/login-codes');
  if (response.status !== 201) throw new Error(`login-codes answered ${response.status}`);
  return ((await response.json()) as { url: string }).url;
}

/** Follows a sign-in link as a browser would, without following the redirect. */
export function visit(url: string, userAgent?: string): Promise<Response> {
  return fetch(url, { redirect: 'manual', headers: userAgent ? { 'user-agent': userAgent } : {} });
}

/** The session secret a sign-in's `303` hands the page in its fragment: `Location: /#s=<secret>`. */
export function secretOf(response: Response): string {
  const location = response.headers.get('location') ?? '';
  const secret = /^\/#s=([A-Za-z0-9_-]{43})$/.exec(location)?.[1];
  if (response.status !== 303 || secret === undefined)
    throw new Error(`sign-in answered ${response.status} to ${JSON.stringify(location)}`);
  return secret;
}

/** Signs in through a fresh link; the secret of the new session. */
export async function signIn(broker: Pick<BrokerProcess, 'request'>): Promise<string> {
  return secretOf(await visit(await loginUrl(broker)));
}

/** The header the page sends its session in. */
export function sessionHeader(secret: string): { authorization: string } {
  return { authorization: `Session ${secret}` };
}

/** A request as the page makes it: `Authorization: Session <secret>`, no token. */
export function asPage(
  broker: BrokerProcess,
  secret: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${broker.baseUrl}${path}`, {
    method,
    headers: {
      ...sessionHeader(secret),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && {
      body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    }),
  });
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
