import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/notifyctl/commands.js';
import { createTempHome, type TempHome } from '../support/broker-process.js';
import { startFakeBroker, type FakeBroker } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import type { ProcessResult } from '../support/run-node.js';

/** Every file under `folder`: what a command wrote (a log, a config) where it should have written nothing. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Every command and subcommand of the registry (commands.ts), so a command added later is walked too:
 * `--help`, `-h` and `notifyctl help ...` print its usage on stdout and exit 0, without a word to the
 * broker, a file written or a line on stderr.
 */
describe('notifyctl help for every command and subcommand', () => {
  let home: TempHome;
  let broker: FakeBroker;
  let env: NodeJS.ProcessEnv;
  let filesBefore: string[];
  before(async () => {
    home = createTempHome();
    broker = await startFakeBroker(() => ({ status: 500, body: '{}' }));
    env = { ...home.env, NOTIFY_PORT: String(broker.port), NOTIFY_TOKEN: 'a-token' };
    filesBefore = filesUnder(home.home);
  });
  after(async () => {
    await broker.close();
    home.cleanup();
  });

  /** Each way of asking, with the words its answer must name; one command's asks are compared. */
  const asks = COMMANDS.flatMap((command) => [
    { args: [command.name, '--help'], names: [command.name] },
    { args: ['help', command.name], names: [command.name] },
    ...(command.subcommands ?? []).map((sub) => ({
      args: [command.name, sub.name, '--help'],
      names: [command.name, sub.name],
    })),
  ]);
  const answers = new Map<string, ProcessResult>();

  it('are all answered (run a few at a time)', async () => {
    const queue = [...asks];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let ask = queue.shift(); ask; ask = queue.shift())
          answers.set(ask.args.join(' '), await runNotifyctl(ask.args, { env, stdin: '' }));
      }),
    );
    assert.equal(answers.size, asks.length);
  });

  for (const ask of asks) {
    it(`notifyctl ${ask.args.join(' ')}: its usage on stdout, exit 0`, () => {
      const answer = answers.get(ask.args.join(' '))!;
      assert.deepEqual([answer.code, answer.stderr], [0, ''], answer.stdout);
      assert.match(answer.stdout, new RegExp(`Usage:[\\s\\S]*notifyctl ${ask.names[0]}\\b`));
      assert.ok(answer.stdout.includes(ask.names.at(-1)!), answer.stdout);
    });
  }

  it('the command list and every command fit in 100 columns (long usages wrap)', async () => {
    const list = (await runNotifyctl(['--help'], { env })).stdout;
    const wide = [list, ...COMMANDS.map((command) => answers.get(`${command.name} --help`)!.stdout)]
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.length > 100);
    assert.deepEqual(wide, []);
  });

  it('-h is --help, and notifyctl help <command> the same text', async () => {
    for (const command of COMMANDS) {
      const help = answers.get(`${command.name} --help`)!.stdout;
      assert.equal(answers.get(`help ${command.name}`)!.stdout, help);
    }
    assert.equal((await runNotifyctl(['hook', '-h'], { env })).stdout, answers.get('hook --help')!.stdout);
  });

  it('never reaches the broker nor writes a file, the hook adapter included', () => {
    assert.deepEqual(broker.requests, []);
    assert.deepEqual(filesUnder(home.home), filesBefore);
  });

  it('names an unknown command', async () => {
    const answer = await runNotifyctl(['help', 'nonsense'], { env });
    assert.deepEqual(
      [answer.code, answer.stderr],
      [1, "notifyctl: unknown command 'nonsense'. Run 'notifyctl --help'.\n"],
    );
  });
});
