import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Pairing } from './domain/pairing.js';
import { openDatabase } from './open-database.js';
import { INVITE_LIFETIME_MS, RelayStore } from './store.js';

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A store on a fresh relay.db, opened as notify-relay opens it, with an operator and two people. */
async function freshStore(): Promise<RelayStore> {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-people-'));
  roots.push(root);
  const store = await RelayStore.open(openDatabase({ data: join(root, 'data') }));
  await store.insertUser({
    id: 'op',
    username: 'olga',
    passwordHash: 'h-op',
    isOperator: true,
    createdAt: T0,
  });
  await store.insertUser({
    id: 'u1',
    username: 'ann',
    passwordHash: 'h-1',
    isOperator: false,
    createdAt: T0,
  });
  await store.insertUser({
    id: 'u2',
    username: 'ben',
    passwordHash: 'h-2',
    isOperator: false,
    createdAt: T0,
  });
  return store;
}

async function tokensOf(store: RelayStore, userId: string): Promise<string[]> {
  return (await store.people.sessionsOf(userId, 0, 0)).map((session) => session.tokenHash).sort();
}

function pairing(id: string, userCode: string): Pairing {
  return {
    id,
    secretHash: `secret-${id}`,
    userCode,
    senderName: 'laptop',
    client: null,
    createdAt: T0,
    expiresAt: T0 + 600_000,
    intervalSeconds: 5,
    lastPollAt: null,
    state: 'pending',
    endedAt: null,
    approvedBy: null,
  };
}

describe('people store: sessions', () => {
  it('lists a person’s live sessions, last used first, within lifetime and idle limit exactly', async () => {
    const store = await freshStore();
    await store.insertSession('a', 'u1', T0);
    await store.insertSession('b', 'u1', T0);
    await store.insertSession('c', 'u1', T0 + MINUTE);
    await store.insertSession('other', 'u2', T0 + 2 * MINUTE);
    const sessions = await store.people.sessionsOf('u1', T0, T0 - 1);
    assert.deepEqual(
      sessions.map(({ tokenHash, createdAt, lastUsedAt }) => ({ tokenHash, createdAt, lastUsedAt })),
      [
        { tokenHash: 'c', createdAt: T0 + MINUTE, lastUsedAt: T0 + MINUTE },
        { tokenHash: 'b', createdAt: T0, lastUsedAt: T0 },
        { tokenHash: 'a', createdAt: T0, lastUsedAt: T0 },
      ],
    );
    assert.ok(sessions[1]!.id > sessions[2]!.id, 'the same last use: newest session first');
    assert.deepEqual(
      (await store.people.sessionsOf('u1', T0, T0)).map((session) => session.tokenHash),
      ['c'],
      'unused since `usedAfter` exactly: idle',
    );
    const lifetime = sessions[2]!;
    const expiresAt = (await store.db.get('SELECT expires_at FROM sessions WHERE token_hash = ?', ['a']))![
      'expires_at'
    ] as number;
    assert.deepEqual(
      (await store.people.sessionsOf('u1', expiresAt, 0)).map((session) => session.tokenHash),
      ['c'],
      'at the end of its lifetime a session is gone',
    );
    assert.equal(
      (await store.people.sessionsOf('u1', expiresAt - 1, 0)).some((session) => session.id === lifetime.id),
      true,
    );
  });

  it('ends one session of the person by its number, never another person’s', async () => {
    const store = await freshStore();
    await store.insertSession('a', 'u1', T0);
    await store.insertSession('b', 'u1', T0);
    await store.insertSession('x', 'u2', T0);
    const [theirs] = await store.people.sessionsOf('u2', T0, 0);
    assert.equal(await store.people.deleteSession('u1', theirs!.id), false);
    assert.deepEqual(await tokensOf(store, 'u2'), ['x']);
    const a = (await store.people.sessionsOf('u1', T0, 0)).find((session) => session.tokenHash === 'a')!;
    assert.equal(await store.people.deleteSession('u1', a.id), true);
    assert.equal(await store.people.deleteSession('u1', a.id), false);
    assert.deepEqual(await tokensOf(store, 'u1'), ['b']);
  });

  it('signs out everywhere else: every other session of the person ends, this one and others’ stay', async () => {
    const store = await freshStore();
    for (const token of ['a', 'b', 'c']) await store.insertSession(token, 'u1', T0);
    await store.insertSession('x', 'u2', T0);
    assert.equal(await store.people.deleteOtherSessions('u1', 'b'), 2);
    assert.deepEqual(await tokensOf(store, 'u1'), ['b']);
    assert.deepEqual(await tokensOf(store, 'u2'), ['x']);
  });

  it('a new password replaces the hash and ends the person’s other sessions only', async () => {
    const store = await freshStore();
    for (const token of ['a', 'b']) await store.insertSession(token, 'u1', T0);
    await store.insertSession('x', 'u2', T0);
    await store.people.setPassword('u1', 'new-hash', 'a');
    assert.equal((await store.userById('u1'))?.passwordHash, 'new-hash');
    assert.equal((await store.userById('u2'))?.passwordHash, 'h-2');
    assert.deepEqual(await tokensOf(store, 'u1'), ['a']);
    assert.deepEqual(await tokensOf(store, 'u2'), ['x']);
  });
});

describe('people store: people', () => {
  it('tells a person’s name and whether they are the operator', async () => {
    const store = await freshStore();
    assert.deepEqual(await store.people.userById('op'), { username: 'olga', isOperator: true });
    assert.deepEqual(await store.people.userById('u1'), { username: 'ann', isOperator: false });
    assert.equal(await store.people.userById('nobody'), undefined);
  });

  it('removes a person with all that is theirs and the pairings they approved, nothing of anyone else', async () => {
    const store = await freshStore();
    await store.insertSession('s1', 'u1', T0);
    await store.insertSession('s2', 'u2', T0);
    await store.insertInstallation({ id: 'i1', userId: 'u1', name: 'a', client: null, createdAt: T0 }, 'c1');
    await store.insertInstallation({ id: 'i2', userId: 'u2', name: 'b', client: null, createdAt: T0 }, 'c2');
    await store.insertPairing(pairing('p1', 'AAAA'));
    await store.insertPairing(pairing('p2', 'BBBB'));
    await store.insertPairing(pairing('p3', 'CCCC'));
    await store.approvePairing('p1', 'u1');
    await store.approvePairing('p2', 'u2');

    assert.equal(await store.people.deleteUser('u1'), true);
    assert.equal(await store.userById('u1'), undefined);
    assert.deepEqual(await tokensOf(store, 'u1'), []);
    assert.deepEqual(await store.installationsOf('u1'), []);
    assert.equal(await store.pairing('p1'), undefined);

    assert.ok(await store.userById('u2'));
    assert.deepEqual(await tokensOf(store, 'u2'), ['s2']);
    assert.equal((await store.installationsOf('u2')).length, 1);
    assert.equal((await store.pairing('p2'))?.state, 'approved');
    assert.equal((await store.pairing('p3'))?.state, 'pending');
    assert.equal(await store.people.deleteUser('u1'), false);
  });

  it('never removes the operator, nor their approved pairings', async () => {
    const store = await freshStore();
    await store.insertPairing(pairing('p1', 'AAAA'));
    await store.approvePairing('p1', 'op');
    assert.equal(await store.people.deleteUser('op'), false);
    assert.ok(await store.userById('op'));
    assert.equal((await store.pairing('p1'))?.approvedBy, 'op');
  });
});

describe('people store: invitations', () => {
  it('lists the open invitations oldest first, until each one’s lifetime ends exactly', async () => {
    const store = await freshStore();
    await store.insertInvite('late', 'op', T0 + MINUTE);
    await store.insertInvite('early', 'op', T0);
    assert.deepEqual(
      (await store.people.openInvites(T0 + MINUTE)).map(({ createdAt, expiresAt }) => ({
        createdAt,
        expiresAt,
      })),
      [
        { createdAt: T0, expiresAt: T0 + INVITE_LIFETIME_MS },
        { createdAt: T0 + MINUTE, expiresAt: T0 + MINUTE + INVITE_LIFETIME_MS },
      ],
    );
    assert.deepEqual(
      (await store.people.openInvites(T0 + INVITE_LIFETIME_MS)).map((invite) => invite.createdAt),
      [T0 + MINUTE],
    );
    assert.deepEqual(
      (await store.people.openInvites(T0 + INVITE_LIFETIME_MS - 1)).map((invite) => invite.createdAt),
      [T0, T0 + MINUTE],
    );
  });

  it('withdraws one invitation by its number: that link stops working, the other still works', async () => {
    const store = await freshStore();
    await store.insertInvite('one', 'op', T0);
    await store.insertInvite('two', 'op', T0 + 1);
    const [first] = await store.people.openInvites(T0);
    assert.equal(await store.people.deleteInvite(first!.id), true);
    assert.equal(await store.people.deleteInvite(first!.id), false);
    assert.equal(await store.isLiveInvite('one', T0 + 2), false);
    assert.equal(await store.isLiveInvite('two', T0 + 2), true);
  });
});
