import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTempHome, startBroker, type TempHome } from '../support/broker-process.js';

/** A 6 MB tmpfs for the data folder, so the database can really run out of room; or why it cannot be mounted. */
function mountSmallDisk(): { mountPoint: string } | { refused: string } {
  const mountPoint = mkdtempSync(join(tmpdir(), 'notify-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m,mode=0700', 'tmpfs', mountPoint], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return { mountPoint };
  } catch (error) {
    rmSync(mountPoint, { recursive: true, force: true });
    return { refused: String((error as { stderr?: Buffer }).stderr ?? error).trim() };
  }
}

/** CI sets CI (.ci/run runs with CI=true, as root): there a test that cannot mount fails, never skips. */
const inCi = !['', '0', 'false'].includes(process.env['CI'] ?? '');

/** Writes until the file system says ENOSPC; returns the filler file. */
function fillDisk(folder: string): string {
  const filler = join(folder, 'filler');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return filler;
}

function homeOnDisk(mountPoint: string): TempHome {
  const home = createTempHome();
  const dataHome = join(mountPoint, 'data');
  mkdirSync(dataHome);
  home.env['XDG_DATA_HOME'] = dataHome;
  home.databaseFile = join(dataHome, 'notify', 'notify.db');
  return home;
}

const body = (i: number) => ({ title: `full disk ${i}`, message: 'm'.repeat(3000) });
const disk = mountSmallDisk();
const mountPoint = 'mountPoint' in disk ? disk.mountPoint : undefined;

describe(
  'a full disk under the database',
  { timeout: 60_000, skip: !mountPoint && !inCi && 'mounting a tmpfs needs root' },
  () => {
    it('answers 507 and stores nothing, keeps reads working, recovers by itself, and every 201 survives a restart', async () => {
      assert.ok(
        mountPoint,
        `CI must run this test, but mounting a tmpfs failed (${'refused' in disk ? disk.refused : ''}); run CI as root`,
      );
      const home = homeOnDisk(mountPoint);
      let broker = await startBroker({ home });
      try {
        // A route to a provider that is never reached: a create writes its outbox intake row in the
        // notification's transaction, so a refused create must leave no outbox item, and a 201 must have one.
        const provider = await broker.request('POST', '/v1/providers', {
          kind: 'webhook',
          name: 'unreachable',
          settings: {
            url: 'http://127.0.0.1:9/hook',
            signingSecret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
          },
        });
        assert.equal(provider.status, 201);
        const providerId = ((await provider.json()) as { id: string }).id;
        const route = await broker.request('POST', '/v1/routes', { providerId, minimumPriority: 'low' });
        assert.equal(route.status, 201);
        const routeId = ((await route.json()) as { id: string }).id;
        assert.equal((await broker.request('POST', `/v1/providers/${providerId}/enable`)).status, 200);
        assert.equal((await broker.request('POST', `/v1/routes/${routeId}/enable`)).status, 200);

        const acked: string[] = [];
        const seed = await broker.request('POST', '/v1/notifications', body(-1));
        assert.equal(seed.status, 201);
        const seedId = ((await seed.json()) as { id: string }).id;
        acked.push(seedId);

        const filler = fillDisk(mountPoint);
        // Creates in bursts, so the broker commits several in one transaction: a storage failure of one
        // must undo the whole batch and refuse each of its creates, never answer 201 for one it lost.
        // Here that failure comes at COMMIT. One write failing alone, at its own statement, would need
        // more than 64 KiB of pages it changes (SQLite's statement journal then spills to a temporary
        // file, on this disk too when TMPDIR is on it); a single notification write stays below that even
        // with every field at its limit, so that path is guarded by write-queue.test.ts instead.
        const refused: Response[] = [];
        for (let round = 0; round < 500 && refused.length === 0; round++) {
          const burst = await Promise.all(
            Array.from({ length: 8 }, (_, j) =>
              broker.request('POST', '/v1/notifications', body(round * 8 + j)),
            ),
          );
          for (const response of burst) {
            if (response.status === 201) acked.push(((await response.json()) as { id: string }).id);
            else refused.push(response);
          }
        }
        assert.ok(refused.length > 0, 'a create was refused once the disk was full');
        for (const response of refused) {
          assert.equal(response.status, 507);
          assert.deepEqual(await response.json(), {
            error: 'the disk holding the Notify database is full; nothing was changed',
          });
        }

        // A status change either commits (200, visible) or is refused (507, unchanged): never 200 and lost.
        const dismissed = await broker.request('POST', `/v1/notifications/${seedId}/dismiss`);
        assert.ok([200, 507].includes(dismissed.status), `dismiss answered ${dismissed.status}`);
        const seedNow = (await (await broker.request('GET', `/v1/notifications/${seedId}`)).json()) as {
          status: string;
        };
        assert.equal(seedNow.status, dismissed.status === 200 ? 'dismissed' : 'active');

        const listed = await broker.request('GET', '/v1/notifications?limit=1');
        assert.equal(listed.status, 200, 'reads keep working on a full disk');
        assert.equal((await fetch(`${broker.baseUrl}/health`)).status, 200);

        rmSync(filler);
        const after = await broker.request('POST', '/v1/notifications', body(9999));
        assert.equal(after.status, 201, 'writes work again once there is room, without a restart');
        acked.push(((await after.json()) as { id: string }).id);

        for (const id of acked) {
          assert.equal(
            (await broker.request('GET', `/v1/notifications/${id}`)).status,
            200,
            `${id} is readable`,
          );
        }
        assert.equal(await broker.stop(), 0);
        broker = await startBroker({ home });
        for (const id of acked) {
          const response = await broker.request('GET', `/v1/notifications/${id}`);
          assert.equal(response.status, 200, `${id} is readable after a restart`);
        }
        const stored = (await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as {
          id: string;
        }[];
        assert.ok(acked.length < 500, `${acked.length} creates were answered 201`);
        assert.deepEqual(
          stored.map((notification) => notification.id).sort(),
          [...acked].sort(),
          'exactly the creates answered 201 are stored: none refused with 507 is',
        );
        const items = (await (await broker.request('GET', '/v1/outbox?limit=500')).json()) as {
          notificationId: string;
          operation: string;
        }[];
        assert.deepEqual(
          items
            .filter((item) => item.operation === 'send')
            .map((item) => item.notificationId)
            .sort(),
          [...acked].sort(),
          'each create answered 201 has its send in the outbox, and none refused with 507 has one',
        );
        const log = readdirSync(home.logDir)
          .map((name) => readFileSync(join(home.logDir, name), 'utf8'))
          .join('');
        const lines = log.split('\n').filter((line) => line.includes('-> 507'));
        assert.ok(lines.length >= 1, 'the refusal is logged');
        assert.match(lines[0]!, /SQLITE_FULL/);
      } finally {
        await broker.stop();
        home.cleanup();
        execFileSync('umount', ['-l', mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
      }
    });
  },
);
