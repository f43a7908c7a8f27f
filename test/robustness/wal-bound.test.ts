import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';

const CREATES = 9000;
const CONNECTIONS = 16;
const MiB = 1024 * 1024;

/** node:http on kept-alive sockets: fetch costs the test process several times more CPU per request. */
function post(port: number, token: string, agent: Agent, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/notifications',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const walSize = (databaseFile: string) =>
  statSync(`${databaseFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;

/** The burst takes well over the suite's one-minute default on a busy machine. */
const BURST_TIMEOUT = { timeout: 120_000 };

describe('the write-ahead log under a long burst of creates', BURST_TIMEOUT, () => {
  const broker = useBroker();

  it(
    `stays under 16 MiB through ${CREATES} creates with no read between them, and is truncated once idle`,
    BURST_TIMEOUT,
    async () => {
      let next = 0;
      let largest = 0;
      const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      const worker = async () => {
        while (next < CREATES) {
          const i = next++;
          const body = JSON.stringify({
            title: `burst ${i}`,
            message:
              'a message of the usual size for an agent: the build finished, 312 tests passed, 0 failed',
            metadata: { i },
          });
          assert.equal(await post(broker.port, broker.token, agent, body), 201);
          if (i % 500 === 0) largest = Math.max(largest, walSize(broker.home.databaseFile));
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      agent.destroy();
      largest = Math.max(largest, walSize(broker.home.databaseFile));
      assert.ok(largest <= 16 * MiB, `the WAL reached ${(largest / MiB).toFixed(1)} MiB`);

      let idle = walSize(broker.home.databaseFile);
      for (let waited = 0; idle > 0 && waited < 10_000; waited += 250) {
        await sleep(250);
        idle = walSize(broker.home.databaseFile);
      }
      assert.equal(idle, 0, 'a second without writes truncates the WAL');
      const last = await broker.request('GET', '/v1/notifications?limit=1');
      assert.equal(((await last.json()) as { title: string }[])[0]!.title.startsWith('burst '), true);
    },
  );
});
