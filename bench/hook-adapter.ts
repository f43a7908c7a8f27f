import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, startBroker } from '../test/support/broker-process.js';

const HOOK = fileURLToPath(new URL('../notify-hook.cjs', import.meta.url));
const RUNS = 30;
/** The targets: a hook event costs at most 1.5x a bare Node start; unreachable adds <= 200 ms. */
const TARGET_RATIO = 1.5;
const UNREACHABLE_BUDGET_MS = 200;

interface Case {
  name: string;
  args: string[];
  input: string;
  env: NodeJS.ProcessEnv;
}

const payload = (event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 'bench-session', cwd: process.cwd(), hook_event_name: event, ...extra });

/**
 * Agents run the hook adapter on every hook event, so its whole-process wall time is measured against
 * `node -e 0`, the floor any Node program pays, with the broker running. Cases are interleaved run by
 * run so that machine noise hits all alike; the figure is the median.
 */
export async function runHookAdapterBench(): Promise<void> {
  const broker = await startBroker();
  try {
    const env = broker.home.env;
    const down = { ...env, NOTIFY_PORT: String(await freePort()) };
    const cases: Case[] = [
      { name: 'node -e 0', args: ['-e', '0'], input: '', env },
      { name: 'hook Stop (raise)', args: [HOOK, 'claude'], input: payload('Stop'), env },
      {
        name: 'hook UserPromptSubmit (resolve)',
        args: [HOOK, 'claude'],
        input: payload('UserPromptSubmit'),
        env,
      },
      { name: 'hook Stop, broker down', args: [HOOK, 'claude'], input: payload('Stop'), env: down },
    ];
    for (const each of cases) time(each);
    const samples = cases.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) cases.forEach((each, index) => samples[index]!.push(time(each)));
    const [bare, raise, resolve, unreachable] = samples.map(median) as [number, number, number, number];
    console.log(`runs: ${RUNS} each, interleaved; median wall time of a whole process`);
    console.log(`${'node -e 0'.padEnd(32)} ${bare.toFixed(1)} ms`);
    for (const [name, value] of [
      [cases[1]!.name, raise],
      [cases[2]!.name, resolve],
    ] as const) {
      const ratio = value / bare;
      const verdict = ratio <= TARGET_RATIO ? 'within' : 'OVER';
      console.log(
        `${name.padEnd(32)} ${value.toFixed(1)} ms  ${ratio.toFixed(2)}x bare node (${verdict} the ${TARGET_RATIO}x target)`,
      );
    }
    const extra = unreachable - bare;
    const verdict = extra <= UNREACHABLE_BUDGET_MS ? 'within' : 'OVER';
    console.log(
      `${cases[3]!.name.padEnd(32)} ${unreachable.toFixed(1)} ms  ${(unreachable / bare).toFixed(2)}x bare node, ` +
        `+${extra.toFixed(1)} ms (${verdict} the ${UNREACHABLE_BUDGET_MS} ms budget)`,
    );
  } finally {
    await broker.stop();
    broker.home.cleanup();
  }
}

function time({ name, args, input, env }: Case): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, input, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 || result.stdout !== '')
    throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
