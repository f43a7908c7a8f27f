/**
 * The relay inbox's live view: from the moment notifyd answered a create to the moment the `changed`
 * event for it arrived on GET /v1/inbox/stream, the stream the inbox page (the web page's components)
 * listens to, read with a signed-in person's session cookie. The real notifyd, paired by the real
 * `notify relay pair` with the real notify-relay (approved on its page), delivers through the relay
 * provider; one notification at a time. Then the same in a real page: the relay's inbox open in
 * Chromium, until its row is in the DOM (wall-clock ms, both sides on this machine). The baseline is
 * the create's own answer time in the same run.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { Browser, Page } from 'playwright-core';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { NOTIFY } from '../test/support/notify-cli.js';
import { startRelay, type RelayProcess } from '../test/support/relay-process.js';
import { setUpOperator, type WebSession } from '../test/support/relay-web.js';
import { launchChromium } from '../test/web/support/browser.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';

const RUNS = 200;
const PAGE_RUNS = 100;
const GAP_MS = 10;

export async function runRelayInboxBench(): Promise<void> {
  // The delivery rate limit is lifted: this measures the lag, not the limit.
  const relay = await startRelay({ args: ['--delivery-rate', '100000'] });
  let broker: BrokerProcess | undefined;
  let inbox: InboxStream | undefined;
  let browser: Browser | undefined;
  try {
    broker = await startBroker();
    const web = await setUpOperator(relay);
    await pairAndRoute(broker, relay, web);
    inbox = await openInboxStream(relay, web);
    const first = await deliverOne(broker, inbox, 'first');
    const lags: number[] = [];
    const answers: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { lag, answerMs } = await deliverOne(broker, inbox, String(run));
      lags.push(lag);
      answers.push(answerMs);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    printTable(
      `relay inbox live: create answered → its change on the inbox's event stream (ms), ${RUNS} runs, vs the create's answer`,
      [
        { label: 'first (cold thread)', broker: first.lag, baseline: first.answerMs },
        { label: 'p50', broker: percentile(lags, 0.5), baseline: percentile(answers, 0.5) },
        { label: 'p99', broker: percentile(lags, 0.99), baseline: percentile(answers, 0.99) },
      ],
    );

    browser = await launchChromium();
    const page = await openInboxPage(browser, relay, web);
    const pageLags: number[] = [];
    const pageAnswers: number[] = [];
    for (let run = 0; run < PAGE_RUNS; run++) {
      const { lag, answerMs } = await showOne(broker, page, `Page ${run}`);
      pageLags.push(lag);
      pageAnswers.push(answerMs);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    printTable(
      `relay inbox page: create answered → its row in the open inbox page (ms, Chromium), ${PAGE_RUNS} runs, vs the create's answer`,
      [
        { label: 'p50', broker: percentile(pageLags, 0.5), baseline: percentile(pageAnswers, 0.5) },
        { label: 'p99', broker: percentile(pageLags, 0.99), baseline: percentile(pageAnswers, 0.99) },
      ],
    );
  } finally {
    await browser?.close();
    inbox?.close();
    await broker?.stop();
    broker?.home.cleanup();
    await relay.cleanup();
  }
}

interface InboxStream {
  /** Resolves with the arrival time (performance.now) of the first change naming this notification. */
  changeOf(notificationId: string): Promise<number>;
  close(): void;
}

/** GET /v1/inbox/stream as the page's EventSource opens it: the session cookie, arrival times kept. */
function openInboxStream(relay: RelayProcess, web: WebSession): Promise<InboxStream> {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  let chunkAt = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (event.event !== 'changed') return;
      const { id } = JSON.parse(event.data) as { id: string };
      if (arrived.has(id)) return;
      arrived.set(id, chunkAt);
      waiting.get(id)?.(chunkAt);
    },
  });
  return new Promise((resolve, reject) => {
    const stream = request(
      {
        host: '127.0.0.1',
        port: relay.port,
        path: '/v1/inbox/stream',
        headers: { cookie: web.cookieHeader(), accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`the inbox stream answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          chunkAt = performance.now();
          parser.feed(chunk);
        });
        resolve({
          changeOf: (id) =>
            new Promise((found) => {
              const at = arrived.get(id);
              if (at !== undefined) found(at);
              else waiting.set(id, found);
            }),
          close: () => stream.destroy(),
        });
      },
    );
    stream.on('error', reject);
    stream.end();
  });
}

/** One create, then its change on the inbox stream: the lag from the create's answer, and the answer's time. */
async function deliverOne(
  broker: BrokerProcess,
  inbox: InboxStream,
  label: string,
): Promise<{ lag: number; answerMs: number }> {
  const sent = performance.now();
  const response = await broker.request('POST', '/v1/notifications', {
    title: `Inbox ${label}`,
    message: 'lag',
  });
  const { id } = (await response.json()) as { id: string };
  const answeredAt = performance.now();
  const timeout = new Promise<number>((resolve) =>
    setTimeout(() => resolve(Number.POSITIVE_INFINITY), 10_000).unref(),
  );
  const shownAt = await Promise.race([inbox.changeOf(id), timeout]);
  return { lag: shownAt - answeredAt, answerMs: answeredAt - sent };
}

/** The inbox page, signed in, noting (Date.now) when each title first enters the DOM. */
async function openInboxPage(browser: Browser, relay: RelayProcess, web: WebSession): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([...web.cookies].map(([name, value]) => ({ name, value, url: relay.url })));
  const page = await context.newPage();
  await page.goto(`${relay.url}/inbox`);
  await page.waitForSelector('li.notification');
  // A string, run in the page: this project's Node types have no DOM.
  await page.evaluate(`(() => {
    const seen = (window.seen = {});
    new MutationObserver(() => {
      const now = Date.now();
      for (const title of document.querySelectorAll('li.notification .title')) seen[title.textContent] ??= now;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);
  return page;
}

/** One create, then its row in the page: the lag from the create's answer, and the answer's time. */
async function showOne(
  broker: BrokerProcess,
  page: Page,
  title: string,
): Promise<{ lag: number; answerMs: number }> {
  const sent = performance.now();
  await (await broker.request('POST', '/v1/notifications', { title, message: 'lag' })).json();
  const answeredAt = Date.now();
  const answerMs = performance.now() - sent;
  // Functions, not strings: the relay's CSP forbids the eval a string predicate would need. Each runs
  // in the page, so each names what it reads there itself.
  await page.waitForFunction(
    (wanted) => (globalThis as unknown as { seen: Record<string, number> }).seen[wanted] !== undefined,
    title,
    { timeout: 10_000 },
  );
  const shownAt = await page.evaluate(
    (wanted) => (globalThis as unknown as { seen: Record<string, number> }).seen[wanted]!,
    title,
  );
  return { lag: shownAt - answeredAt, answerMs };
}

/** `notify relay pair`, approved on the relay's page by the signed-in operator; then a route to it. */
export async function pairAndRoute(
  broker: BrokerProcess,
  relay: RelayProcess,
  web: WebSession,
): Promise<void> {
  const child = spawn(
    process.execPath,
    [NOTIFY, 'relay', 'pair', '--url', relay.url, '--allow-private', '--json'],
    {
      env: broker.home.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const code = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const printed = /"user_code":"([A-Z0-9-]+)"/.exec(stdout);
      if (printed) resolve(printed[1]!);
    });
    void exited.then(() => reject(new Error(`notify relay pair ended early: ${stderr}`)));
  });
  const page = await web.get(`/pair?code=${code}`);
  const pairingId = /name="pairing_id" value="([^"]+)"/.exec(page.text)?.[1];
  if (!pairingId) throw new Error(`the approval page shows no pairing: ${page.status}`);
  await web.post('/pair', { pairing_id: pairingId, decision: 'approve' });
  if ((await exited) !== 0) throw new Error(`notify relay pair failed: ${stderr}`);
  const saved = JSON.parse(stdout.trim().split('\n').at(-1)!) as { profile: { id: string } };
  await broker.request('POST', `/v1/providers/${saved.profile.id}/enable`);
  const route = (await (
    await broker.request('POST', '/v1/routes', { providerId: saved.profile.id })
  ).json()) as { id: string };
  await broker.request('POST', `/v1/routes/${route.id}/enable`);
}
