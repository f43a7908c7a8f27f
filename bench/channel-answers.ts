/**
 * Answers through the channels that carry them: a real Claude Code PermissionRequest hook (as
 * installed, `--answer-wait`) creates its request; the request arrives at the service's stand-in
 * (Telegram, Slack, Discord, Matrix; a real mosquitto for MQTT); Allow is pressed there; the figure is
 * the time from the hook's spawn to the decision's last byte on its stdout. The baseline, measured in
 * the same run, is the same path through the real notify-relay answered from a phone's inbox. Each
 * path has its own notifyd; the paths take turns run by run, so machine noise hits all alike.
 */
import assert from 'node:assert/strict';
import { ALLOW_DECISION, permissionHook } from '../test/channels/permission-hook.js';
import {
  discordPath,
  matrixPath,
  mqttPath,
  relayPath,
  slackPath,
  telegramPath,
  type AnswerPath,
} from './support/answer-paths.js';
import { percentile } from './support/percentile.js';
import { printTable, type Row } from './support/report.js';

/**
 * Runs per path: 100, so that p99 means something (it is the slowest of the 100); with six paths at
 * a few hundred ms each the whole bench stays near two minutes.
 */
const RUNS = 100;

interface Sample {
  /** Hook spawned → decision on its stdout. */
  total: number;
  /** Hook spawned → the request shown at the far end. */
  shown: number;
  /** Answer sent at the far end → decision on the hook's stdout. */
  answered: number;
}

export async function runChannelAnswersBench(): Promise<void> {
  const paths: AnswerPath[] = [];
  try {
    paths.push(await relayPath());
    for (const start of [telegramPath, slackPath, discordPath, matrixPath, mqttPath])
      paths.push(await start());
    const samples = new Map(paths.map((path) => [path, [] as Sample[]]));
    // The first request of each notifyd also warms its delivery thread: not counted.
    for (const path of paths) await once(path, 'warm-up');
    for (let run = 0; run < RUNS; run++)
      for (const path of paths) samples.get(path)!.push(await once(path, String(run)));
    const [relay, ...channels] = paths;
    const of = (path: AnswerPath, part: keyof Sample, fraction: number) =>
      percentile(
        samples.get(path)!.map((sample) => sample[part]),
        fraction,
      );
    const rows = (part: keyof Sample): Row[] =>
      channels.flatMap((path) =>
        [0.5, 0.99].map((fraction) => ({
          label: `${path.name} p${fraction * 100}`,
          broker: of(path, part, fraction),
          baseline: of(relay!, part, fraction),
        })),
      );
    const columns: [string, string] = ['channel', 'relay'];
    printTable(
      `channel answers: hook spawned → request at the service → Allow pressed there → decision on the hook's stdout (ms), ${RUNS} runs each, vs the relay answered from its inbox`,
      rows('total'),
      columns,
    );
    printTable(`of which: hook spawned → request shown at the service (ms)`, rows('shown'), columns);
    printTable(`of which: Allow pressed → decision on the hook's stdout (ms)`, rows('answered'), columns);
  } finally {
    for (const path of paths) await path.close();
  }
}

/** One hook, answered at the far end of `path`; checks it printed the allow decision. */
async function once(path: AnswerPath, run: string): Promise<Sample> {
  const hook = permissionHook(path.broker, `bench-${path.name}-${run}`);
  const { shownAt, pressedAt } = await path.answerNext();
  const { code, stdout, printedAt } = await hook.finished;
  assert.equal(code, 0, `the ${path.name} hook exited ${code}`);
  assert.deepEqual(JSON.parse(stdout), ALLOW_DECISION, `the ${path.name} hook's decision`);
  return {
    total: printedAt - hook.startedAt,
    shown: shownAt - hook.startedAt,
    answered: printedAt - pressedAt,
  };
}
