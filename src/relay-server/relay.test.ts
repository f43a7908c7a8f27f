/**
 * The relay's pairing and answer rules over its real store (a relay.db in a temporary folder), with a
 * clock the test moves: what a person notices when a pairing ran out or an answer is for an older view.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Delivered } from './domain/delivery.js';
import { PAIRING_LIFETIME_MS } from './domain/pairing.js';
import { Hub } from './hub.js';
import { openDatabase } from './open-database.js';
import { Relay } from './relay.js';
import { RelayStore, type User } from './store.js';

const T0 = 1_800_000_000_000;
const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function relayWithPerson(): Promise<{
  relay: Relay;
  store: RelayStore;
  ann: User;
  clock: { now: number };
}> {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-rules-'));
  roots.push(root);
  const store = await RelayStore.open(openDatabase({ data: join(root, 'data') }));
  const clock = { now: T0 };
  const ann: User = { id: 'u1', username: 'ann', passwordHash: 'h', isOperator: false, createdAt: T0 };
  await store.insertUser(ann);
  return { relay: new Relay(store, new Hub(), () => clock.now, 'Test relay'), store, ann, clock };
}

function question(updatedAt: string, overrides: Partial<Delivered> = {}): Delivered {
  return {
    title: 'Deploy?',
    message: 'to production',
    type: 'question',
    priority: 'high',
    agent: 'claude',
    project: 'notify',
    status: 'active',
    actions: [
      { id: 'yes', label: 'Yes' },
      { id: 'no', label: 'No' },
    ],
    createdAt: '2026-11-29T06:00:00.000Z',
    updatedAt,
    senderRevision: 1,
    messageIncluded: true,
    ...overrides,
  };
}

describe('relay rules over its store', () => {
  it('a pairing past its lifetime can neither be approved nor collected, and makes no installation', async () => {
    const { relay, store, ann, clock } = await relayWithPerson();
    const { pairing, pollSecret } = await relay.createPairing('laptop', null);
    clock.now = T0 + PAIRING_LIFETIME_MS;
    assert.equal(await relay.openPairing(pairing.userCode), undefined);
    assert.equal(await relay.decide(pairing.id, ann, true), false);
    assert.deepEqual(await relay.poll(pairing.id, pollSecret), { status: 'expired' });
    assert.deepEqual(await store.installationsOf(ann.id), []);
  });

  it('a pairing approved in time but collected after its lifetime makes no installation', async () => {
    const { relay, store, ann, clock } = await relayWithPerson();
    const { pairing, pollSecret } = await relay.createPairing('laptop', null);
    clock.now = T0 + PAIRING_LIFETIME_MS - 1;
    assert.equal(await relay.decide(pairing.id, ann, true), true);
    clock.now = T0 + PAIRING_LIFETIME_MS;
    assert.deepEqual(await relay.poll(pairing.id, pollSecret), { status: 'expired' });
    assert.deepEqual(await store.installationsOf(ann.id), []);
  });

  it('an answer for an older lifecycle or revision is refused and changes nothing; the current one is taken', async () => {
    const { relay, store, ann } = await relayWithPerson();
    const installation = { id: 'i1', userId: ann.id, name: 'laptop', client: null, createdAt: T0 };
    await store.insertInstallation(installation, 'cred');
    const put = (key: string, delivered: Delivered): ReturnType<Relay['deliver']> =>
      relay.deliver(installation, 'n1', delivered, { key, requestHash: key });
    await put('k1', question('2026-11-29T06:00:00.000Z'));
    await put('k2', question('2026-11-29T06:00:01.000Z', { status: 'resolved' }));
    await put('k3', question('2026-11-29T06:00:02.000Z'));
    await put('k4', question('2026-11-29T06:00:03.000Z', { title: 'Deploy now?' }));
    const stored = (await store.notification('i1', 'n1'))!;
    assert.equal(stored.lifecycle, 2);
    assert.equal(stored.revision, 3);

    assert.equal(await relay.answer(ann, stored.inboxId, 'yes', 1, 3), 'other_lifecycle');
    assert.equal(await relay.answer(ann, stored.inboxId, 'yes', 2, 2), 'other_revision');
    assert.deepEqual(await store.notification('i1', 'n1'), stored);
    assert.deepEqual(await store.eventsAfter('i1', 0), []);

    const answered = await relay.answer(ann, stored.inboxId, 'yes', 2, 3);
    assert.equal(typeof answered, 'object');
    assert.equal((await store.notification('i1', 'n1'))?.answerAction, 'yes');
    assert.equal((await store.eventsAfter('i1', 0)).length, 1);
  });
});
