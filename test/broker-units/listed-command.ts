/**
 * A notifyctl command as `notifyctl --help` and `notifyctl help <name>` show it, and run as notifyctl
 * runs it (through `run`, with the process's io): the in-process tests of each command end with it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/notifyctl/commands.js';

export interface ListedCommand {
  name: string;
  summary: string;
  help: string[];
  /** Arguments `run` refuses, exiting 1, and why (the test's name). */
  refused: { args: string[]; because: string };
}

export function describeListedCommand({ name, summary, help, refused }: ListedCommand): void {
  describe(`notifyctl ${name} in the command list`, () => {
    const command = COMMANDS.find((candidate) => candidate.name === name);

    it('is listed with its summary and usage', () => {
      assert.ok(command, `notifyctl ${name} is a command`);
      assert.equal(command.summary, summary);
      assert.equal(command.help?.(), help.join('\n'));
    });

    it(`runs as notifyctl runs it: ${refused.because} exits 1 (its message goes to stderr)`, async () => {
      assert.equal(await command?.run(refused.args), 1);
    });
  });
}
