/**
 * The web page (docs/web.md) in Debian's Chromium: from navigation start to the first paint of an
 * inbox with 100 active notifications among 100,000 stored, against loading a static one-sentence page
 * from the same broker (its answer to a spent sign-in link: no script, no API call) in the same run.
 * Each load is a fresh browser context, so nothing is cached. Times are the page's own clock
 * (performance.now() at the first animation frame that shows them), not the driver's round trips.
 *
 * Then the broker's create throughput (wrk, as in broker-throughput.ts) with one inbox open, following
 * every create live, against none open, in slices ordered A B B A. Target: at least 0.90× (unchanged
 * within noise on two shared cores, where the browser's rendering competes with the broker for CPU).
 */
import { loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { createTempHome, startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { launchChromium } from '../test/web/support/browser.js';
import { figuresOf, type Sample } from './support/load.js';
import { brokerTarget, jsonPosts } from './support/load-target.js';
import { percentile } from './support/percentile.js';
import { cpuRow, printTable } from './support/report.js';
import { seedNotifications } from './support/seed.js';
import { loadWithWrk } from './support/wrk.js';

const STORED = 100_000;
const ACTIVE = 100;
const RUNS = 15;
const TARGET_MS = 300;
const CREATE_SLICE_SECONDS = 5;
const CREATE_CONNECTIONS = 16;
const TARGET_CREATE_RATIO = 0.9;
const CREATE_BODY = JSON.stringify({
  title: 'Build finished',
  message: 'The release build of notify finished in 42 s; 312 tests passed, 0 failed.',
  type: 'task_done',
  agent: 'claude-code',
  project: 'notify',
});

/** The part of the browser's globals the probe uses (the bench compiles without the DOM's types). */
interface PageGlobals {
  document: { querySelector(selector: string): unknown };
}

type StorageState = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

export async function runWebPageBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); figures are only comparable on an idle machine, rerun if it was busy`,
  );
  const home = createTempHome();
  seedNotifications(home.databaseFile, STORED, Date.now(), ACTIVE);
  const broker = await startBroker({ home });
  const browser = await launchChromium();
  try {
    const signedIn = await signIn(browser, broker);
    const inbox: number[] = [];
    const blank: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      blank.push(await paintMs(browser, signedIn, `${broker.baseUrl}/login`, 'body p'));
      inbox.push(await paintMs(browser, signedIn, `${broker.baseUrl}/`, `#active li:nth-child(${ACTIVE})`));
    }
    console.log(
      `${STORED} notifications stored, ${ACTIVE} active; ${RUNS} loads each, interleaved, each in a fresh context (cold cache)`,
    );
    const median = (values: number[]) => percentile(values, 0.5);
    printTable('web page: navigation start to first paint (ms)', [
      {
        label: 'inbox painted, median',
        broker: median(inbox),
        baseline: median(blank),
        target: `≤ ${TARGET_MS} ms`,
        pass: median(inbox) <= TARGET_MS,
      },
      { label: 'inbox painted, p90', broker: percentile(inbox, 0.9), baseline: percentile(blank, 0.9) },
    ]);
    await compareCreates(browser, signedIn, broker);
  } finally {
    await browser.close();
    await broker.stop();
    home.cleanup();
  }
}

async function signIn(browser: Browser, broker: BrokerProcess): Promise<StorageState> {
  const response = await broker.request('POST', '/v1/web/login-codes');
  const { url } = (await response.json()) as { url: string };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** performance.now() (from navigation start) at the first animation frame that shows `selector`. */
async function paintMs(
  browser: Browser,
  storageState: StorageState,
  url: string,
  selector: string,
): Promise<number> {
  const context = await browser.newContext({ storageState });
  const page: Page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // A function, not a string: the page's CSP forbids eval. Runs in the page, where `document` is.
    const handle = await page.waitForFunction(
      (wanted) => (globalThis as unknown as PageGlobals).document.querySelector(wanted) && performance.now(),
      selector,
      { polling: 'raf', timeout: 30_000 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

/** Create throughput without a page open (A) and with the inbox open and following the stream (B). */
async function compareCreates(
  browser: Browser,
  signedIn: StorageState,
  broker: BrokerProcess,
): Promise<void> {
  const creates = jsonPosts(brokerTarget(broker, '/v1/notifications'), CREATE_BODY, CREATE_CONNECTIONS);
  process.stdout.write(
    `\ncreates: warm-up ${CREATE_SLICE_SECONDS} s, then ${CREATE_SLICE_SECONDS} s slices A B B A...`,
  );
  await loadWithWrk(creates, CREATE_SLICE_SECONDS);
  const samples: [Sample[], Sample[]] = [[], []];
  for (const withPage of [false, true, true, false]) {
    if (!withPage) {
      samples[0].push(await loadWithWrk(creates, CREATE_SLICE_SECONDS));
      continue;
    }
    const context = await browser.newContext({ storageState: signedIn });
    const page = await context.newPage();
    await page.goto(`${broker.baseUrl}/`);
    await page.locator('#active li').first().waitFor();
    samples[1].push(await loadWithWrk(creates, CREATE_SLICE_SECONDS));
    await context.close();
  }
  console.log(' done');
  const [without, withPage] = samples.map((slices) => figuresOf(slices)) as [
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
  ];
  const ratio = withPage.requestsPerSecond / without.requestsPerSecond;
  printTable('POST /v1/notifications with one inbox open (broker) and none (baseline)', [
    {
      label: 'throughput (req/s)',
      broker: withPage.requestsPerSecond,
      baseline: without.requestsPerSecond,
      target: `≥ ${TARGET_CREATE_RATIO.toFixed(2)}× baseline`,
      pass: ratio >= TARGET_CREATE_RATIO,
    },
    { label: 'latency p50 (ms)', broker: withPage.p50, baseline: without.p50 },
    { label: 'latency p99 (ms)', broker: withPage.p99, baseline: without.p99 },
    ...cpuRow('broker CPU per create (µs)', withPage, without),
  ]);
}
