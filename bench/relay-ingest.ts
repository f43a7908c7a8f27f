/**
 * Relay ingest throughput: PUT /v1/notifications/{id} on the real notify-relay (bearer credential of a
 * paired installation; validation, idempotency record, insert, live fan-out to the inbox) against a bare
 * node:http server doing the same SQLite insert into the same table (relay-baseline-server.ts), both as
 * separate processes on loopback, in the same run. wrk (one thread) sends a new id and Idempotency-Key
 * with every request (support/wrk-relay-put.lua), 16 connections, slices ordered relay, baseline,
 * baseline, relay. The ratio is printed, with server CPU per request (the figure a busy shared machine
 * barely moves). No target: the relay does in one transaction what the baseline skips (credential
 * lookup, idempotency read and record, lifecycle read), so the ratio shows what that costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRelay, type RelayProcess } from '../test/support/relay-process.js';
import { delivered, pairSender, setUpOperator } from '../test/support/relay-web.js';
import { startBaseline, type BaselineProcess } from './support/baseline-process.js';
import { comparePair, type LoadOptions } from './support/load.js';
import { cpuRow, printTable } from './support/report.js';
import { loadWithWrk } from './support/wrk.js';

const CONNECTIONS = 16;
const SECONDS = 10;
const WARM_UP_SECONDS = 2;
const PUT_SCRIPT = fileURLToPath(new URL('../../bench/support/wrk-relay-put.lua', import.meta.url));
const BASELINE_SERVER = fileURLToPath(new URL('./relay-baseline-server.js', import.meta.url));
const BODY = JSON.stringify(
  delivered({ message: 'The release build of notify finished in 42 s; 312 tests passed, 0 failed.' }),
);

export async function runRelayIngestBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine if it was busy`,
  );
  const baselineDir = mkdtempSync(join(tmpdir(), 'notify-relay-bench-'));
  let relay: RelayProcess | undefined;
  let baseline: BaselineProcess | undefined;
  try {
    relay = await startRelay({ args: ['--delivery-rate', '1000000000'] });
    const web = await setUpOperator(relay);
    const { credential } = await pairSender(relay, web, 'bench-laptop');
    baseline = await startBaseline(join(baselineDir, 'baseline.db'), BASELINE_SERVER);
    const options = (url: string, authorization: string, pid: number | undefined): LoadOptions => ({
      url,
      method: 'POST',
      connections: CONNECTIONS,
      body: BODY,
      ...(pid !== undefined && { pid }),
      wrk: { script: PUT_SCRIPT, env: { WRK_AUTHORIZATION: authorization } },
    });
    const relayLoad = options(relay.url, `Bearer ${credential}`, relay.pid);
    const baselineLoad = options(`http://127.0.0.1:${baseline.port}`, '', baseline.pid);
    await loadWithWrk(relayLoad, WARM_UP_SECONDS);
    await loadWithWrk(baselineLoad, WARM_UP_SECONDS);
    const [relayFigures, baselineFigures] = await comparePair(
      relayLoad,
      baselineLoad,
      SECONDS,
      2,
      loadWithWrk,
    );
    const ratio = relayFigures.requestsPerSecond / baselineFigures.requestsPerSecond;
    printTable(`PUT /v1/notifications/{id}, ${CONNECTIONS} connections, ${SECONDS} s each (wrk)`, [
      {
        label: 'req/s',
        broker: relayFigures.requestsPerSecond,
        baseline: baselineFigures.requestsPerSecond,
      },
      { label: 'p50 ms', broker: relayFigures.p50, baseline: baselineFigures.p50 },
      { label: 'p99 ms', broker: relayFigures.p99, baseline: baselineFigures.p99 },
      ...cpuRow('server CPU µs/request', relayFigures, baselineFigures),
    ]);
    console.log(`relay/baseline ingest ratio: ${ratio.toFixed(2)}× (the "broker" column is the relay)`);
  } finally {
    await baseline?.stop();
    await relay?.cleanup();
    rmSync(baselineDir, { recursive: true, force: true });
  }
}
