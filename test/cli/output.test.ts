import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOTIFY, runNotify } from '../support/notify-cli.js';

/** Output far larger than a pipe's buffer (64 KiB on Linux), written without process.stdout. */
describe('notify output through pipes', () => {
  let broker: BrokerProcess;
  before(async () => {
    broker = await startBroker();
    for (let index = 0; index < 200; index++) {
      await broker.request('POST', '/v1/notifications', { title: `n${index}`, message: 'm'.repeat(3000) });
    }
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  it('writes a large answer completely', async () => {
    const result = await runNotify(['list', '--json', '--limit', '500'], { env: broker.home.env });
    assert.equal(result.code, 0);
    assert.ok(result.stdout.length > 600_000);
    assert.equal((JSON.parse(result.stdout) as unknown[]).length, 200);
  });

  it('exits 0 without an error when the reader stops early (notify list | head)', () => {
    const pipeline = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${NOTIFY}" list --json --limit 500 | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { env: broker.home.env, encoding: 'utf8' },
    );
    assert.equal(pipeline.stderr, '');
    assert.equal(pipeline.stdout, '0\n');
  });
});
