import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';

import { freePort, NOTIFYD, useBroker, writeConfig } from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Another program with a write transaction open on the broker's database, until told to stop. */
async function holdWriteLock(databaseFile: string): Promise<{ release(): Promise<void> }> {
  const script = `
    const Database = require(process.argv[1]);
    const db = new Database(process.argv[2]);
    db.exec('BEGIN IMMEDIATE');
    db.exec("UPDATE notifications SET title = title WHERE 0");
    process.stdout.write('locked\\n');
    process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', script, BETTER_SQLITE3, databaseFile], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    release: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

describe('the broker owns its database', { timeout: 30_000 }, () => {
  const broker = useBroker();

  it('refuses a second broker on the same data folder, naming the folder and the first pid', async () => {
    const config = { authToken: broker.token, port: await freePort() };
    writeConfig(broker.home, config);
    try {
      const second = await runNode(NOTIFYD, [], { env: broker.home.env });
      assert.equal(second.code, 1);
      const dataDir = dirname(broker.home.databaseFile);
      assert.equal(
        second.stderr,
        `Notify cannot start: another Notify broker (pid ${broker.child.pid}) is using the data folder ${dataDir}; stop it first (or remove ${dataDir}/notifyd.lock if pid ${broker.child.pid} is not Notify)\n`,
      );
    } finally {
      writeConfig(broker.home, { authToken: broker.token, port: broker.port, rateLimitPerSecond: 100000 });
    }
    assert.equal(
      (await broker.request('GET', '/v1/notifications?limit=1')).status,
      200,
      'the first one still serves',
    );
  });

  it('creates the database and its -wal and -shm files readable by the owner only', async () => {
    assert.equal(
      (await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' })).status,
      201,
    );
    for (const suffix of ['', '-wal', '-shm']) {
      const mode = statSync(`${broker.home.databaseFile}${suffix}`).mode & 0o777;
      assert.equal(mode.toString(8), '600', `notify.db${suffix}`);
    }
  });

  it('answers 503 with Retry-After while another program holds the write lock, /health stays instant, and writes resume after', async () => {
    const holder = await holdWriteLock(broker.home.databaseFile);
    let release = holder.release;
    try {
      const order: string[] = [];
      const create = broker
        .request('POST', '/v1/notifications', { title: 'locked out', message: 'm' })
        .then((response) => (order.push('create'), response));
      const health = fetch(`${broker.baseUrl}/health`).then((response) => (order.push('health'), response));
      const [created, healthy] = await Promise.all([create, health]);
      assert.equal(healthy.status, 200);
      assert.deepEqual(order, ['health', 'create'], '/health answered while the create waited for the lock');
      assert.equal(created.status, 503);
      assert.equal(created.headers.get('retry-after'), '1');
      assert.deepEqual(await created.json(), {
        error: 'the Notify database is locked by another program; nothing was changed, retry shortly',
      });
      const listed = await broker.request('GET', '/v1/notifications?limit=500');
      assert.equal(listed.status, 200, 'reads work while another program writes');
      assert.ok(!((await listed.json()) as { title: string }[]).some((n) => n.title === 'locked out'));

      await holder.release();
      release = async () => {};
      const after = await broker.request('POST', '/v1/notifications', {
        title: 'after the lock',
        message: 'm',
      });
      assert.equal(after.status, 201);
    } finally {
      await release();
    }
  });
});
