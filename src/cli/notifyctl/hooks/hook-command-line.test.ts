import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandPaths, commandPort, hookCommandLine, survivingCommandLine } from './hook-command-line.js';

const NODE = '/opt/node 24/bin/node';
const BUNDLE = '/home/me/notify/dist/notify-hook.cjs';

describe('hook command lines and the port written into them', () => {
  it('writes NOTIFY_PORT through env, bare and inside the loop that survives a stop signal, never on Windows', () => {
    const bare = hookCommandLine('claude', NODE, BUNDLE, 5123, 'linux');
    assert.equal(bare, `env NOTIFY_PORT=5123 '${NODE}' ${BUNDLE} claude`);
    assert.equal(hookCommandLine('claude', NODE, BUNDLE, 5123, 'win32'), `'${NODE}' ${BUNDLE} claude`);
    const loop = survivingCommandLine(bare, 'linux');
    assert.match(loop, /do \$s env NOTIFY_PORT=5123 '/);
    assert.equal(commandPort(loop), 5123);
    assert.equal(commandPort(bare), 5123);
    assert.equal(
      commandPort(survivingCommandLine(hookCommandLine('claude', NODE, BUNDLE), 'linux')),
      undefined,
    );
  });

  it('reads the node and bundle paths whatever port is written in', () => {
    const loop = survivingCommandLine(hookCommandLine('codex', NODE, BUNDLE, 5123, 'linux'), 'linux');
    assert.deepEqual(commandPaths(loop), [NODE, BUNDLE]);
  });
});
