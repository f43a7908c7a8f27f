import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const DATA_LOCK = fileURLToPath(new URL('../../src/store/data-lock.js', import.meta.url));
const RACERS = 8;
const ROUNDS = 12;

/**
 * One starter: says it is loaded, reads the shared start time from its stdin, waits for it, takes the
 * lock, says whether it got it, and holds it until every starter has answered (its stdin closes), as a
 * running broker would. Named notifyd-*, as the lock recognizes a live Notify process by name.
 */
const STARTER = `
import { lockDataFolder } from ${JSON.stringify(DATA_LOCK)};
const [dataDir] = process.argv.slice(2);
process.stdout.write('loaded\\n');
process.stdin.once('data', (chunk) => {
  const startAt = Number(chunk.toString());
  while (Date.now() < startAt) {}
  let answer;
  try {
    lockDataFolder(dataDir);
    answer = 'took';
  } catch (error) {
    answer = error.name;
  }
  process.stdout.write(answer + '\\n');
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
});
`;

/** Time between the last starter saying it is loaded and the shared start: enough to hand it to all. */
const START_MARGIN_MS = 100;

interface Starter {
  loaded: Promise<void>;
  answer: Promise<string>;
  exited: Promise<void>;
  go(startAt: number): void;
  release(): void;
}

function start(script: string, dataDir: string): Starter {
  const child = spawn(process.execPath, [script, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: ((line: string) => void)[] = [];
  const next = () => new Promise<string>((resolve) => lines.push(resolve));
  const loaded = next();
  const answer = next();
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (let end = output.indexOf('\n'); end >= 0; end = output.indexOf('\n')) {
      lines.shift()?.(output.slice(0, end));
      output = output.slice(end + 1);
    }
  });
  return {
    loaded: loaded.then(() => undefined),
    answer,
    exited: new Promise((resolve) => child.once('close', () => resolve())),
    go: (startAt) => child.stdin.write(`${startAt}\n`),
    release: () => child.stdin.end(),
  };
}

/** A pid no process has: a lock left by a broker killed with -9. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

describe('the data-folder lock with starters racing', () => {
  const folder = mkdtempSync(join(tmpdir(), 'notify-lock-race-'));
  const script = join(folder, 'notifyd-starter.mjs');
  writeFileSync(script, STARTER);
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const [name, before] of [
    ['a free folder', undefined],
    ['a lock left by a killed broker', () => `${deadPid()} another Notify broker\n`],
    ['an empty lock file', () => ''],
  ] as const) {
    it(`gives ${name} to exactly one of ${RACERS} starters, ${ROUNDS} times over`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const dataDir = join(folder, `data-${name.length}-${round}`);
        if (before !== undefined) {
          mkdirSync(dataDir);
          writeFileSync(join(dataDir, 'notifyd.lock'), before());
        }
        const starters = Array.from({ length: RACERS }, () => start(script, dataDir));
        await Promise.all(starters.map((starter) => starter.loaded));
        const startAt = Date.now() + START_MARGIN_MS;
        starters.forEach((starter) => starter.go(startAt));
        const answers = await Promise.all(starters.map((starter) => starter.answer));
        starters.forEach((starter) => starter.release());
        await Promise.all(starters.map((starter) => starter.exited));
        const took = answers.filter((answer) => answer === 'took').length;
        assert.equal(took, 1, `round ${round}: ${answers.join(', ')}`);
        assert.deepEqual(
          answers.filter((answer) => answer !== 'took'),
          Array(RACERS - 1).fill('DataFolderInUseError'),
        );
        assert.match(readFileSync(join(dataDir, 'notifyd.lock'), 'utf8'), /^\d+ another Notify broker\n$/);
      }
    });
  }
});
