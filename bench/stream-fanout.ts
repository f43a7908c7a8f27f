/**
 * Event stream fan-out: 100 subscribers on GET /v1/stream, then creates sent one at a time; for every
 * (create, subscriber) pair, the time from sending the create to the event arriving at that
 * subscriber. The baseline is bench/stream-baseline-server.ts, a bare node:http server that only
 * writes each published body to its open streams, measured the same way in the same run.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { startBroker } from '../test/support/broker-process.js';
import { percentile } from './support/percentile.js';
import { printTable } from './support/report.js';

const SUBSCRIBERS = 100;
const EVENTS = 200;
const WARM_UP_EVENTS = 20;
const BODY = JSON.stringify({
  title: 'Need input',
  message: 'Which branch should the release come from?',
  type: 'input_required',
  agent: 'claude-code',
  project: 'notify',
});

interface Side {
  port: number;
  streamPath: string;
  publishPath: string;
  headers: Record<string, string>;
}

export async function runStreamBench(): Promise<void> {
  const broker = await startBroker({ config: { rateLimitPerSecond: 1_000_000_000 } });
  const baseline = await startStreamBaseline();
  try {
    const brokerSide: Side = {
      port: broker.port,
      streamPath: '/v1/stream',
      publishPath: '/v1/notifications',
      headers: { authorization: `Bearer ${broker.token}` },
    };
    const baselineSide: Side = {
      port: baseline.port,
      streamPath: '/stream',
      publishPath: '/publish',
      headers: {},
    };
    const ours = await measure(brokerSide);
    const theirs = await measure(baselineSide);
    printTable(`Stream fan-out to ${SUBSCRIBERS} subscribers, ${EVENTS} events (ms from send to arrival)`, [
      { label: 'p50', broker: percentile(ours, 0.5), baseline: percentile(theirs, 0.5) },
      { label: 'p99', broker: percentile(ours, 0.99), baseline: percentile(theirs, 0.99) },
    ]);
  } finally {
    await broker.stop();
    broker.home.cleanup();
    await baseline.stop();
  }
}

/** Latencies in ms over every (event, subscriber) pair after the warm-up. */
async function measure(side: Side): Promise<number[]> {
  const arrivals: Map<number, number>[] = [];
  const subscribers = await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, index) =>
      subscribe(side, (sequence) => arrivals[index]!.set(sequence, performance.now())),
    ),
  );
  subscribers.forEach(() => arrivals.push(new Map()));
  const sent: number[] = [];
  for (let sequence = 0; sequence < WARM_UP_EVENTS + EVENTS; sequence++) {
    sent.push(performance.now());
    await publish(side);
    // Wait until every subscriber has it, so each send is measured alone.
    while (arrivals.some((map) => !map.has(sequence))) await new Promise((resolve) => setImmediate(resolve));
  }
  subscribers.forEach((close) => close());
  const latencies: number[] = [];
  for (const map of arrivals) {
    for (let sequence = WARM_UP_EVENTS; sequence < WARM_UP_EVENTS + EVENTS; sequence++) {
      latencies.push(map.get(sequence)! - sent[sequence]!);
    }
  }
  return latencies;
}

function subscribe(side: Side, onEvent: (sequence: number) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let count = 0;
    const outgoing = request(
      { host: '127.0.0.1', port: side.port, path: side.streamPath, headers: side.headers, agent: false },
      (incoming) => {
        if (incoming.statusCode !== 200) return reject(new Error(`stream answered ${incoming.statusCode}`));
        incoming.setEncoding('utf8');
        const parser = createParser({ onEvent: () => onEvent(count++) });
        incoming.on('data', (chunk: string) => parser.feed(chunk));
        resolve(() => outgoing.destroy());
      },
    );
    outgoing.on('error', () => {});
    outgoing.end();
  });
}

function publish(side: Side): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: side.port,
        method: 'POST',
        path: side.publishPath,
        headers: { ...side.headers, 'content-type': 'application/json' },
        agent: false,
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () =>
          incoming.statusCode === 201
            ? resolve()
            : reject(new Error(`publish answered ${incoming.statusCode}`)),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(BODY);
  });
}

async function startStreamBaseline(): Promise<{ port: number; stop(): Promise<void> }> {
  const server = fileURLToPath(new URL('./stream-baseline-server.js', import.meta.url));
  const child = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /baseline listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`stream baseline exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
