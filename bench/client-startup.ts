import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBroker } from '../test/support/broker-process.js';

const NOTIFY = fileURLToPath(new URL('../notify.cjs', import.meta.url));
const NOTIFYCTL = fileURLToPath(new URL('../src/cli/notifyctl/main.js', import.meta.url));
const RUNS = 30;
const TARGETS = { version: 1.3, send: 1.6 };

interface Case {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * `notify` runs on every agent's hot path, so its cost is measured against the floor every Node
 * program pays: `node -e 0`. Cases are interleaved run by run so that machine noise hits all alike.
 * notifyctl (no target: a person types it) is shown beside, as the program the compile cache serves.
 */
export async function runClientStartupBench(): Promise<void> {
  const broker = await startBroker();
  try {
    const env = broker.home.env;
    const cases: Case[] = [
      { name: 'node -e 0', args: ['-e', '0'], env },
      { name: 'notify --version', args: [NOTIFY, '--version'], env },
      { name: 'notify send', args: [NOTIFY, 'Bench', 'startup cost', '--key', 'bench'], env },
      { name: 'notifyctl --version', args: [NOTIFYCTL, '--version'], env },
      { name: 'notifyctl providers list', args: [NOTIFYCTL, 'providers', 'list'], env },
    ];
    for (const each of cases) time(each);
    const samples = cases.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) cases.forEach((each, index) => samples[index]!.push(time(each)));
    const [bare, version, send, ctlVersion, ctlList] = samples.map(median) as [
      number,
      number,
      number,
      number,
      number,
    ];
    console.log(`runs: ${RUNS} each, interleaved; median wall time of a whole process`);
    console.log(`node -e 0          ${bare.toFixed(1)} ms`);
    report('notify --version', version, bare, TARGETS.version);
    report('notify send', send, bare, TARGETS.send);
    for (const [name, value] of [
      ['notifyctl --version', ctlVersion],
      ['notifyctl providers list', ctlList],
    ] as const)
      console.log(`${name.padEnd(24)} ${value.toFixed(1)} ms  ${(value / bare).toFixed(2)}x bare node`);
  } finally {
    await broker.stop();
    broker.home.cleanup();
  }
}

function time({ name, args, env }: Case): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function report(name: string, value: number, bare: number, target: number): void {
  const ratio = value / bare;
  const verdict = ratio <= target ? 'within' : 'OVER';
  console.log(
    `${name.padEnd(18)} ${value.toFixed(1)} ms  ${ratio.toFixed(2)}x bare node (${verdict} the ${target}x target)`,
  );
}
