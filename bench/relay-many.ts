/**
 * The relay at scale (docs/relay.md "Many people"): 1,000 paired installations (laptops) and 100 open phone
 * inbox streams (--full: 100 people with 10 laptops and one phone each; the short run: 20 people with
 * 50 laptops and 5 phones each), every laptop's /v1/events stream open, all
 * through the round-robin proxy of the tests. Notifications are created at 2,000 a minute across the
 * laptops; each is answered from its person's phone inbox as soon as the phone's stream shows it:
 * create → the phone's stream (relay receipt) and answer → the laptop's stream, p50/p99 and errors.
 * Two relay processes on one PostgreSQL database against one process on SQLite in the same run; then
 * the same flow as fast as 64 at a time go, on SQLite, PostgreSQL with one process and with two, with
 * the CPU each part used. A node driver, not wrk: each flow waits for an event on one stream, answers
 * with what it carried, and waits for another stream — wrk sends independent requests only.
 * `npm run bench -- relay-many --full` runs the steady load for 3 minutes instead of 12 s
 * and each saturation for 30 s instead of 5 s. The people and laptops are made once, on SQLite, and
 * moved to PostgreSQL with export | import.
 */
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { NOTIFY_RELAY, startRelay, type RelayProcess } from '../test/support/relay-process.js';
import { api, delivered, setUpOperator, WebSession } from '../test/support/relay-web.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../test/support/round-robin-proxy.js';
import { LiveStream } from './support/live-stream.js';
import { percentile } from './support/percentile.js';
import { cpuSeconds, postgresPids } from './support/process-cpu.js';
import { populate, type Person } from './support/relay-population.js';
import { printTable } from './support/report.js';

const FULL = process.argv.includes('--full');
/** 100 phone streams either way: the short run has fewer people (each password is hashed once, slowly), each with 5 open. */
const PEOPLE = FULL ? 100 : 20;
const PHONES = 100 / PEOPLE;
const LAPTOPS = 1000 / PEOPLE;
const PER_MINUTE = 2000;
const STEADY_MS = FULL ? 180_000 : 12_000;
const SATURATE_MS = FULL ? 30_000 : 5_000;
const SATURATE_WIDTH = 64;
/** A flow not done in this long counts as an error. */
const FLOW_TIMEOUT_MS = 10_000;

interface Deployment {
  relays: RelayProcess[];
  proxy: RoundRobinProxy;
  front: RelayProcess;
  postgresPort?: number;
}

interface Clients {
  /** Each person's open phone inbox streams. */
  phones: LiveStream[][];
  laptops: LiveStream[];
}

interface Flows {
  receipt: number[];
  answer: number[];
  errors: number;
  done: number;
}

async function deploy(relays: RelayProcess[], postgresPort?: number): Promise<Deployment> {
  const proxy = await startRoundRobinProxy(relays.map((relay) => relay.port));
  const front: RelayProcess = {
    ...relays[0]!,
    url: proxy.url,
    port: proxy.port,
    advance: (ms) => relays.forEach((relay) => relay.advance(ms)),
  };
  return { relays, proxy, front, ...(postgresPort !== undefined && { postgresPort }) };
}

async function openClients(deployment: Deployment, people: Person[]): Promise<Clients> {
  const port = deployment.proxy.port;
  const phones = await Promise.all(
    people.map((person) =>
      Promise.all(
        Array.from({ length: PHONES }, () =>
          LiveStream.open(port, '/v1/inbox/stream', { cookie: person.web.cookieHeader() }, 'changed', 'id'),
        ),
      ),
    ),
  );
  const laptops: LiveStream[] = [];
  for (const laptop of people.flatMap((person) => person.laptops))
    laptops.push(
      await LiveStream.open(
        port,
        '/v1/events',
        { authorization: `Bearer ${laptop.credential}` },
        'answer',
        'notification_id',
      ),
    );
  return { phones, laptops };
}

function closeClients(clients: Clients): void {
  for (const stream of [...clients.phones.flat(), ...clients.laptops]) stream.close();
}

/** One notification: created by laptop k, seen on its person's phone, answered there, the answer on the laptop. */
async function flow(
  deployment: Deployment,
  people: Person[],
  clients: Clients,
  id: string,
  k: number,
  into: Flows,
) {
  const index = k % (PEOPLE * LAPTOPS);
  const person = people[Math.floor(index / LAPTOPS)]!;
  const laptop = person.laptops[index % LAPTOPS]!;
  const phone = clients.phones[Math.floor(index / LAPTOPS)]![k % PHONES]!;
  const started = performance.now();
  try {
    const created = await api(deployment.front, 'PUT', `/v1/notifications/${id}`, {
      bearer: laptop.credential,
      body: delivered({ title: `Load ${id}` }),
      headers: { 'idempotency-key': id },
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const seen = await phone.next(id, FLOW_TIMEOUT_MS);
    if (!seen) throw new Error('not on the phone');
    const answering = performance.now();
    const answered = await person.web.inbox(
      'POST',
      `/v1/inbox/notifications/${String(seen.data['inbox_id'])}/answer`,
      {
        action: 'allow',
        lifecycle: seen.data['lifecycle'],
        revision: seen.data['revision'],
      },
    );
    if (answered.status !== 200) throw new Error(`answer answered ${answered.status}`);
    const back = await clients.laptops[index]!.next(id, FLOW_TIMEOUT_MS);
    if (!back) throw new Error('not on the laptop');
    into.receipt.push(seen.at - started);
    into.answer.push(back.at - answering);
    into.done++;
  } catch (error) {
    if (into.errors++ === 0) console.error(`  first error: ${(error as Error).message}`);
  }
}

function emptyFlows(): Flows {
  return { receipt: [], answer: [], errors: 0, done: 0 };
}

/** 2,000 a minute, each started on time whether or not the ones before it finished. */
async function steady(
  deployment: Deployment,
  people: Person[],
  clients: Clients,
  tag: string,
): Promise<Flows> {
  const flows = emptyFlows();
  const gap = 60_000 / PER_MINUTE;
  const count = Math.floor(STEADY_MS / gap);
  const start = performance.now();
  const running: Promise<void>[] = [];
  for (let k = 0; k < count; k++) {
    const wait = start + k * gap - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(flow(deployment, people, clients, `${tag}-${k}`, k, flows));
  }
  await Promise.all(running);
  return flows;
}

interface Saturation {
  perSecond: number;
  errors: number;
  /** CPU used, in cores (1.0 = one core busy the whole time). */
  relays: number;
  postgres: number;
  driver: number;
}

/** 64 flows at a time, back to back, for SATURATE_MS: completed flows a second and who used the CPU. */
async function saturate(
  deployment: Deployment,
  people: Person[],
  clients: Clients,
  tag: string,
): Promise<Saturation> {
  const flows = emptyFlows();
  const pgPids = deployment.postgresPort === undefined ? [] : postgresPids(deployment.postgresPort);
  const relayCpu = () => deployment.relays.reduce((sum, relay) => sum + cpuSeconds(relay.pid!), 0);
  const pgCpu = () => pgPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const driverCpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const before = { relays: relayCpu(), postgres: pgCpu(), driver: driverCpu() };
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: SATURATE_WIDTH }, async () => {
      while (performance.now() - start < SATURATE_MS) {
        const k = next++;
        await flow(deployment, people, clients, `${tag}-${k}`, k * 7, flows);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return {
    perSecond: flows.done / seconds,
    errors: flows.errors,
    relays: (relayCpu() - before.relays) / seconds,
    postgres: (pgCpu() - before.postgres) / seconds,
    driver: (driverCpu() - before.driver) / seconds,
  };
}

/** The same signed-in browser, now reaching the relay at another address. */
/** `notify-relay export --data … | notify-relay import --database …`. */
function moveToPostgres(dataDir: string, url: string): void {
  const exported = execFileSync(process.execPath, [NOTIFY_RELAY, 'export', '--data', dataDir], {
    maxBuffer: 1 << 30,
  });
  execFileSync(process.execPath, [NOTIFY_RELAY, 'import', '--database', url], { input: exported });
}

function movedTo(web: WebSession, front: RelayProcess): WebSession {
  const moved = new WebSession(front);
  for (const [name, value] of web.cookies) moved.cookies.set(name, value);
  moved.csrf = web.csrf;
  return moved;
}

async function setUp(deployment: Deployment): Promise<{ people: Person[]; clients: Clients }> {
  const printer = deployment.relays.find((relay) => relay.setupUrl) ?? deployment.relays[0]!;
  const operator = movedTo(await setUpOperator(printer), deployment.front);
  const people = await populate(deployment.front, operator, PEOPLE, LAPTOPS);
  return { people, clients: await openClients(deployment, people) };
}

export async function runRelayManyBench(): Promise<void> {
  // Other programs' load changes every figure here: it is printed with them.
  console.log(`  load average at the start: ${loadavg()[0]!.toFixed(1)} (${availableParallelism()} cores)`);
  const relayArgs = ['--trust-proxy', '--delivery-rate', '100000'];
  let postgres: TestPostgres | undefined;
  const started: RelayProcess[] = [];
  const proxies: RoundRobinProxy[] = [];
  try {
    const lite = await startRelay({ args: relayArgs });
    started.push(lite);
    const one = await deploy([lite]);
    proxies.push(one.proxy);
    const liteSide = await setUp(one);
    const liteSteady = await steady(one, liteSide.people, liteSide.clients, 'lite');
    const liteMax = await saturate(one, liteSide.people, liteSide.clients, 'lite-max');
    closeClients(liteSide.clients);
    await lite.stop();

    // The same people, sessions and laptops on PostgreSQL, moved there as an operator would.
    postgres = await startPostgres();
    const url = postgres.createDatabase();
    moveToPostgres(lite.dataDir, url);
    const pair = await Promise.all(
      [0, 1].map(() =>
        startRelay({ env: { NOTIFY_RELAY_DATABASE: url }, args: [...relayArgs, '--processes', '2'] }),
      ),
    );
    started.push(...pair);
    const two = await deploy(pair, postgres.port);
    proxies.push(two.proxy);
    const pgSide = {
      people: liteSide.people.map((person) => ({ ...person, web: movedTo(person.web, two.front) })),
    };
    const pgClients = await openClients(two, pgSide.people);
    const pgSide2 = { ...pgSide, clients: pgClients };
    const pgSteady = await steady(two, pgSide.people, pgSide2.clients, 'pg');
    const pgMax2 = await saturate(two, pgSide.people, pgSide2.clients, 'pg-max2');
    closeClients(pgSide2.clients);
    await pair[1]!.stop();
    const single = await deploy([pair[0]!], postgres.port);
    proxies.push(single.proxy);
    const moved = pgSide.people.map((person) => ({ ...person, web: movedTo(person.web, single.front) }));
    const singleClients = await openClients(single, moved);
    const pgMax1 = await saturate(single, moved, singleClients, 'pg-max1');
    closeClients(singleClients);

    const count = Math.floor(STEADY_MS / (60_000 / PER_MINUTE));
    printTable(
      `relay many: ${PEOPLE * LAPTOPS} installations of ${PEOPLE} people, ${PEOPLE * PHONES} phone streams, ${PER_MINUTE}/min with answers for ${STEADY_MS / 1000} s (${count} flows); two processes on PostgreSQL ("broker") vs one on SQLite ("baseline"), ms`,
      [
        {
          label: 'create → phone stream p50',
          broker: percentile(pgSteady.receipt, 0.5),
          baseline: percentile(liteSteady.receipt, 0.5),
        },
        {
          label: 'create → phone stream p99',
          broker: percentile(pgSteady.receipt, 0.99),
          baseline: percentile(liteSteady.receipt, 0.99),
        },
        {
          label: 'answer → laptop stream p50',
          broker: percentile(pgSteady.answer, 0.5),
          baseline: percentile(liteSteady.answer, 0.5),
        },
        {
          label: 'answer → laptop stream p99',
          broker: percentile(pgSteady.answer, 0.99),
          baseline: percentile(liteSteady.answer, 0.99),
        },
        {
          label: 'errors',
          broker: pgSteady.errors,
          baseline: liteSteady.errors,
          target: '0',
          pass: pgSteady.errors + liteSteady.errors === 0,
        },
      ],
    );
    printTable(
      `relay many: flows a second at ${SATURATE_WIDTH} at a time for ${SATURATE_MS / 1000} s (create, phone sees it, answer, laptop sees it), vs one SQLite process ("baseline")`,
      [
        { label: 'one SQLite process', broker: liteMax.perSecond, baseline: liteMax.perSecond },
        { label: 'PostgreSQL, one process', broker: pgMax1.perSecond, baseline: liteMax.perSecond },
        { label: 'PostgreSQL, two processes', broker: pgMax2.perSecond, baseline: liteMax.perSecond },
        { label: 'errors (all three)', broker: liteMax.errors + pgMax1.errors + pgMax2.errors },
      ],
    );
    console.log(
      `CPU while saturated, in cores (this machine has ${availableParallelism()}; load average now ${loadavg()[0]!.toFixed(1)}):`,
    );
    for (const [label, figures] of [
      ['one SQLite process', liteMax],
      ['PostgreSQL, one process', pgMax1],
      ['PostgreSQL, two processes', pgMax2],
    ] as const)
      console.log(
        `  ${label.padEnd(26)} relay ${figures.relays.toFixed(2)}  PostgreSQL ${figures.postgres.toFixed(2)}  driver+proxy ${figures.driver.toFixed(2)}  total ${(figures.relays + figures.postgres + figures.driver).toFixed(2)}`,
      );
  } finally {
    for (const proxy of proxies) await proxy.close();
    for (const relay of started) await relay.cleanup();
    postgres?.stop();
  }
}
