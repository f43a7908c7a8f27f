import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';
import { waitFor } from '../support/wait-for.js';

/** Gone, or a zombie waiting to be reaped: either way it sends nothing more. */
function ended(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('an apprise delivery when the broker is killed with -9', () => {
  const home = createTempHome();
  const bin = join(home.home, 'bin');
  const started = join(home.home, 'apprise-started');
  let broker: BrokerProcess | undefined;
  let apprisePid: number | undefined;
  after(async () => {
    await broker?.kill();
    if (apprisePid !== undefined && !ended(apprisePid)) process.kill(apprisePid, 'SIGKILL');
    home.cleanup();
  });

  it('takes its apprise child with it, so nothing is sent after the broker is gone', async () => {
    // A stand-in apprise: records that it runs and with which pid, then takes its time, as a slow
    // service would.
    mkdirSync(bin);
    writeFileSync(join(bin, 'apprise'), `#!/bin/sh\necho $$ > '${started}'\nexec sleep 60\n`);
    chmodSync(join(bin, 'apprise'), 0o755);
    broker = await startBroker({ home, env: { PATH: `${bin}:${process.env['PATH']}` } });
    const json = (method: string, path: string, body?: unknown) => callJson(broker!, method, path, body);
    const provider = await json('POST', '/v1/providers', {
      kind: 'apprise',
      settings: { url: 'json://127.0.0.1:9/notify' },
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    await json('POST', `/v1/providers/${provider.body!['id']}/enable`);
    const route = await json('POST', '/v1/routes', {
      providerId: provider.body!['id'],
      minimumPriority: 'low',
    });
    await json('POST', `/v1/routes/${route.body!['id']}/enable`);
    const created = await json('POST', '/v1/notifications', {
      title: 'Build failed',
      message: 'see the log',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));

    await waitFor(
      () => existsSync(started) && readFileSync(started, 'utf8').trim() !== '',
      'apprise to start',
    );
    apprisePid = Number(readFileSync(started, 'utf8').trim());
    assert.ok(!ended(apprisePid), 'apprise runs while the broker waits for it');
    await broker.kill();
    broker = undefined;
    await waitFor(() => ended(apprisePid!), 'apprise to end with the broker', 5_000);
  });
});
