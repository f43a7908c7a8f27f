import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { NOTIFYD } from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('notifyd and notifyctl command lines', () => {
  const TABLE: [
    program: string,
    file: string,
    args: string[],
    code: number,
    stream: 'stdout' | 'stderr',
    text: RegExp,
  ][] = [
    [
      'notifyd',
      NOTIFYD,
      ['--help'],
      0,
      'stdout',
      /^notifyd \d+\.\d+\.\d+: the Notify broker, in the foreground\./,
    ],
    [
      'notifyd',
      NOTIFYD,
      ['--version'],
      0,
      'stdout',
      new RegExp(`^notifyd ${version.replace(/\./g, '\\.')}\n$`),
    ],
    [
      'notifyd',
      NOTIFYD,
      ['--bogus'],
      1,
      'stderr',
      /^notifyd: unknown argument '--bogus'\. Run 'notifyd --help'\.\n$/,
    ],
    ['notifyctl', NOTIFYCTL, [], 0, 'stdout', /Usage: notifyctl <command> \[options\]/],
    ['notifyctl', NOTIFYCTL, ['--help'], 0, 'stdout', /Usage: notifyctl <command> \[options\]/],
    [
      'notifyctl',
      NOTIFYCTL,
      ['--version'],
      0,
      'stdout',
      new RegExp(`^notifyctl ${version.replace(/\./g, '\\.')}\n$`),
    ],
    [
      'notifyctl',
      NOTIFYCTL,
      ['frobnicate'],
      1,
      'stderr',
      /^notifyctl: unknown command 'frobnicate'\. Run 'notifyctl --help'\.\n$/,
    ],
    [
      'notifyctl',
      NOTIFYCTL,
      ['--help'],
      0,
      'stdout',
      /\n {2}db +recover: save what can be read from a damaged database\n/,
    ],
    [
      'notifyctl',
      NOTIFYCTL,
      ['db', '--help'],
      0,
      'stdout',
      /^Usage: notifyctl db recover \[--time-limit <seconds>\]\n/,
    ],
    [
      'notifyctl',
      NOTIFYCTL,
      ['db', 'repair'],
      1,
      'stderr',
      /^notifyctl db: expected 'recover'\. Run 'notifyctl db --help'\.\n$/,
    ],
  ];
  for (const [program, file, args, code, stream, text] of TABLE) {
    it(`${program} ${args.join(' ') || '(no arguments)'} exits ${code} and prints on ${stream}`, async () => {
      const result = await runNode(file, args, { env: process.env });
      assert.equal(result.code, code);
      assert.match(result[stream], text);
    });
  }
});
