import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { meetsNodeFloor } from '../../src/cli/runtime/node-floor.js';
import { runNode } from '../support/run-node.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OLD_NODE = '20.20.2';
const REFUSAL =
  `Notify needs Node.js 22.14 or later (24 recommended); this is Node.js v${OLD_NODE}. ` +
  'Get a current one from https://nodejs.org/, or without touching the system: ' +
  'npm install --prefix ~/.local/node24 node@24 && export PATH="$HOME/.local/node24/node_modules/node/bin:$PATH"\n';

describe('the Node.js floor', () => {
  for (const [version, meets] of [
    ['v20.20.2', false],
    ['v22.13.1', false],
    ['v22.14.0', true],
    ['v22.23.3', true],
    ['v23.0.0', true],
    ['v24.21.0', true],
    ['v18.20.8', false],
  ] as const) {
    it(`${version} ${meets ? 'runs' : 'is refused'}`, () => assert.equal(meetsNodeFloor(version), meets));
  }
});

/**
 * A real run of each program under a Node.js that reports itself as 20: a preload replaces the
 * version the programs read, the only way to see the refusal without an old Node.js on the machine.
 */
describe('every program on an older Node.js', () => {
  const home = mkdtempSync(join(tmpdir(), 'notify-old-node-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const preload = join(home, 'old-node.cjs');
  writeFileSync(
    preload,
    `Object.defineProperty(process, 'version', { value: 'v${OLD_NODE}' });
Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${OLD_NODE}' } });`,
  );
  const run = (file: string, args: string[], input?: string) =>
    spawnSync(process.execPath, ['--require', preload, join(ROOT, file), ...args], {
      env: { PATH: process.env['PATH'], HOME: home, XDG_CONFIG_HOME: join(home, 'config') },
      input,
      encoding: 'utf8',
    });

  for (const [program, file, args] of [
    ['notify', 'dist/notify.cjs', ['list']],
    ['notifyd', 'dist/src/cli/notifyd.js', []],
    ['notifyctl', 'dist/src/cli/notifyctl/main.js', ['settings', 'show']],
  ] as const) {
    it(`${program} stops at once with one line naming the version, the floor and a way to a current one`, () => {
      const result = run(file, [...args]);
      assert.equal(result.status, 1);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, REFUSAL);
      assert.equal(existsSync(join(home, 'config', 'notify')), false, 'nothing was set up');
    });
  }

  it('the hook exits 0 silently before it sends anything, so the agent goes on', async () => {
    const requests: string[] = [];
    const listener = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(201).end('{}');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const port = (listener.address() as AddressInfo).port;
      const result = await runNode(join(ROOT, 'dist/notify-hook.cjs'), ['claude'], {
        env: {
          PATH: process.env['PATH'],
          HOME: home,
          NOTIFY_PORT: String(port),
          NOTIFY_TOKEN: 'x'.repeat(43),
        },
        stdin: '{"hook_event_name":"Stop","session_id":"s","cwd":"/tmp"}',
        nodeArgs: ['--require', preload],
      });
      assert.deepEqual(
        { code: result.code, stdout: result.stdout, stderr: result.stderr, requests },
        { code: 0, stdout: '', stderr: '', requests: [] },
      );
    } finally {
      listener.close();
    }
  });
});
