import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Delivered, Stored } from './domain/delivery.js';
import type { Pairing } from './domain/pairing.js';
import { openDatabase } from './open-database.js';
import {
  INVITE_LIFETIME_MS,
  type Installation,
  RelayStore,
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  type User,
} from './store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = 1_800_000_000_000;

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A store on a fresh relay.db, opened as notify-relay opens it (src/relay-server/main.ts). */
async function freshStore(): Promise<{ store: RelayStore; data: string }> {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-store-'));
  roots.push(root);
  const data = join(root, 'data');
  return { store: await RelayStore.open(openDatabase({ data })), data };
}

function person(id: string, username: string, createdAt = T0, isOperator = false): User {
  return { id, username, passwordHash: `hash-of-${id}`, isOperator, createdAt };
}

async function withPeople(store: RelayStore, ...ids: string[]): Promise<void> {
  for (const [index, id] of ids.entries()) await store.insertUser(person(id, `name-${id}`, T0 + index));
}

function laptop(id: string, userId: string, createdAt = T0): Installation {
  return { id, userId, name: `laptop ${id}`, client: `notifyd/${id}`, createdAt };
}

function delivered(overrides: Partial<Delivered> = {}): Delivered {
  return {
    title: 'Allow Bash?',
    message: 'rm -rf build',
    type: 'permission',
    priority: 'high',
    agent: 'claude',
    project: 'notify',
    status: 'active',
    actions: [
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'Deny' },
    ],
    createdAt: '2026-11-29T06:00:00.000Z',
    updatedAt: '2026-11-29T06:00:01.000Z',
    senderRevision: 3,
    messageIncluded: true,
    ...overrides,
  };
}

function pending(id: string, userCode: string, createdAt = T0): Pairing {
  return {
    id,
    secretHash: `secret-of-${id}`,
    userCode,
    senderName: `sender ${id}`,
    client: 'notifyd/1.0',
    createdAt,
    expiresAt: createdAt + 600_000,
    intervalSeconds: 5,
    lastPollAt: null,
    state: 'pending',
    endedAt: null,
    approvedBy: null,
  };
}

describe('relay store: accounts', () => {
  it('keeps a person as created, finds them by id, lists everyone oldest first and counts them', async () => {
    const { store } = await freshStore();
    assert.equal(await store.countUsers(), 0);
    await store.insertUser(person('u2', 'bob', T0 + 5));
    await store.insertUser(person('u1', 'alice', T0, true));
    assert.equal(await store.countUsers(), 2);
    assert.deepEqual(await store.userById('u1'), person('u1', 'alice', T0, true));
    assert.deepEqual(await store.userById('u2'), person('u2', 'bob', T0 + 5, false));
    assert.equal(await store.userById('u3'), undefined);
    assert.deepEqual(
      (await store.users()).map((user) => user.id),
      ['u1', 'u2'],
    );
  });

  it('finds a person by name in any case, and refuses a second account whose name differs only in case', async () => {
    const { store } = await freshStore();
    await store.insertUser(person('u1', 'Alice'));
    assert.equal((await store.userByName('aLiCe'))?.id, 'u1');
    assert.equal(await store.userByName('alicia'), undefined);
    await assert.rejects(store.insertUser(person('u2', 'ALICE')));
    assert.equal(await store.insertUserIfFree(person('u3', 'alice'), false), false);
    assert.equal(await store.insertUserIfFree(person('u4', 'bob'), false), true);
    assert.equal((await store.userByName('BOB'))?.id, 'u4');
    assert.equal(await store.countUsers(), 2);
  });

  it('creates the first account only while there is none (the setup link cannot make a second operator)', async () => {
    const { store } = await freshStore();
    assert.equal(await store.insertUserIfFree(person('u1', 'alice', T0, true), true), true);
    assert.equal(await store.insertUserIfFree(person('u2', 'bob', T0, true), true), false);
    assert.equal(await store.userById('u2'), undefined);
    assert.deepEqual(await store.userNameCaseClashes(), []);
  });

  it('opens a relay from before names compared without case: both spellings kept, exact spelling first, then the older', async () => {
    const { store, data } = await freshStore();
    await store.close();
    const raw = new Database(join(data, 'relay.db'));
    raw.exec('DROP INDEX users_by_name_nocase');
    raw
      .prepare(
        'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, 0, ?)',
      )
      .run('old', 'Ann', 'h1', T0);
    raw
      .prepare(
        'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, 0, ?)',
      )
      .run('new', 'ann', 'h2', T0 + 1);
    raw.close();
    const reopened = await RelayStore.open(openDatabase({ data }));
    assert.deepEqual(
      (await reopened.userNameCaseClashes()).map((names) => names.sort()),
      [['Ann', 'ann']],
    );
    assert.equal((await reopened.userByName('ann'))?.id, 'new');
    assert.equal((await reopened.userByName('Ann'))?.id, 'old');
    assert.equal((await reopened.userByName('ANN'))?.id, 'old');
    await reopened.close();
  });

  it('a closed store leaves everything in relay.db alone (a stopped relay is backed up by copying that file)', async () => {
    const { store, data } = await freshStore();
    await store.insertUser(person('u1', 'alice'));
    assert.equal(existsSync(join(data, 'relay.db-wal')), true);
    await store.close();
    assert.deepEqual(readdirSync(data), ['relay.db']);
    const copy = new Database(join(data, 'relay.db'), { readonly: true });
    assert.equal(
      (copy.prepare('SELECT username FROM users').get() as { username: string }).username,
      'alice',
    );
    copy.close();
  });
});

describe('relay store: sign-in sessions', () => {
  it('ends a session at the end of its lifetime, however busy it is kept', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertSession('s1', 'u1', T0);
    for (let at = T0 + 10 * HOUR; at < T0 + SESSION_LIFETIME_MS; at += 10 * HOUR)
      assert.equal((await store.sessionUser('s1', at))?.id, 'u1', `in use at +${(at - T0) / HOUR} h`);
    assert.equal((await store.sessionUser('s1', T0 + SESSION_LIFETIME_MS - 1))?.id, 'u1');
    assert.equal(await store.sessionUser('s1', T0 + SESSION_LIFETIME_MS), undefined);
    assert.equal(SESSION_LIFETIME_MS, 7 * DAY);
  });

  it('ends a session unused for its idle limit; each use (at most one write a minute) moves the limit', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertSession('s1', 'u1', T0);
    assert.equal(SESSION_IDLE_MS, 12 * HOUR);
    assert.equal((await store.sessionUser('s1', T0 + SESSION_IDLE_MS - 1))?.id, 'u1');
    const used = T0 + SESSION_IDLE_MS - 1;
    assert.equal((await store.sessionUser('s1', used + SESSION_IDLE_MS - 1))?.id, 'u1');
    const later = used + SESSION_IDLE_MS - 1;
    assert.equal(await store.sessionUser('s1', later + SESSION_IDLE_MS), undefined);

    await store.insertSession('s2', 'u1', T0);
    assert.equal(await store.sessionUser('s2', T0 + SESSION_IDLE_MS), undefined);
    assert.equal(
      await store.sessionUser('s2', T0 + SESSION_IDLE_MS + 1),
      undefined,
      'trying it does not revive it',
    );
  });

  it('records a use only once a minute has passed since the last recorded one', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertSession('s1', 'u1', T0);
    const lastUsed = async (): Promise<number | undefined> =>
      (await store.people.sessionsOf('u1', T0, 0))[0]?.lastUsedAt;
    await store.sessionUser('s1', T0 + 59_999);
    assert.equal(await lastUsed(), T0);
    await store.sessionUser('s1', T0 + 60_000);
    assert.equal(await lastUsed(), T0 + 60_000);
    await store.sessionUser('nope', T0 + 10 * 60_000);
    assert.equal(await lastUsed(), T0 + 60_000);
  });

  it('signing out ends that session only', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertSession('s1', 'u1', T0);
    await store.insertSession('s2', 'u1', T0);
    await store.deleteSession('s1');
    assert.equal(await store.sessionUser('s1', T0 + 1), undefined);
    assert.equal((await store.sessionUser('s2', T0 + 1))?.id, 'u1');
  });
});

describe('relay store: invitations', () => {
  it('an invitation works until its lifetime ends, and only once', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    assert.equal(INVITE_LIFETIME_MS, 72 * HOUR);
    await store.insertInvite('i1', 'u1', T0);
    await store.insertInvite('i2', 'u1', T0);
    assert.equal(await store.isLiveInvite('i1', T0 + INVITE_LIFETIME_MS - 1), true);
    assert.equal(await store.isLiveInvite('i1', T0 + INVITE_LIFETIME_MS), false);
    assert.equal(await store.isLiveInvite('other', T0), false);
    assert.equal(await store.takeInvite('i1', T0 + INVITE_LIFETIME_MS), false);
    assert.equal(await store.takeInvite('i1', T0 + INVITE_LIFETIME_MS - 1), true);
    assert.equal(await store.takeInvite('i1', T0 + 1), false);
    assert.equal(await store.isLiveInvite('i2', T0 + 1), true);
  });

  it('two tabs using the same invitation at once: only one of them gets it', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInvite('i1', 'u1', T0);
    const taken = await Promise.all([store.takeInvite('i1', T0 + 1), store.takeInvite('i1', T0 + 1)]);
    assert.deepEqual(taken.sort(), [false, true]);
  });
});

describe('relay store: pairings', () => {
  it('keeps a pairing as requested and finds it by its code only while pending and unexpired', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    const pairing = pending('p1', 'ABCD-EFGH');
    await store.insertPairing(pairing);
    assert.deepEqual(await store.pairing('p1'), pairing);
    assert.equal(await store.pairing('p2'), undefined);
    assert.deepEqual(await store.openPairingByCode('ABCD-EFGH', pairing.expiresAt - 1), pairing);
    assert.equal(await store.openPairingByCode('ABCD-EFGH', pairing.expiresAt), undefined);
    assert.equal(await store.openPairingByCode('ABCD-EFGI', T0), undefined);
    assert.equal(await store.approvePairing('p1', 'u1'), true);
    assert.equal(await store.openPairingByCode('ABCD-EFGH', T0 + 1), undefined);
  });

  it('records a poll: its time and the interval the sender must now keep', async () => {
    const { store } = await freshStore();
    await store.insertPairing(pending('p1', 'AAAA-AAAA'));
    await store.insertPairing(pending('p2', 'BBBB-BBBB'));
    await store.recordPoll('p1', T0 + 7000, 10);
    assert.deepEqual(await store.pairing('p1'), {
      ...pending('p1', 'AAAA-AAAA'),
      lastPollAt: T0 + 7000,
      intervalSeconds: 10,
    });
    assert.deepEqual(await store.pairing('p2'), pending('p2', 'BBBB-BBBB'));
  });

  it('a pairing is decided once: approved or rejected, a second decision changes nothing', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1', 'u2');
    await store.insertPairing(pending('p1', 'AAAA-AAAA'));
    await store.insertPairing(pending('p2', 'BBBB-BBBB'));
    await store.insertPairing(pending('p3', 'CCCC-CCCC'));

    assert.equal(await store.approvePairing('p1', 'u1'), true);
    assert.equal(await store.approvePairing('p1', 'u2'), false);
    assert.equal(await store.rejectPairing('p1', 'u2', T0 + 9), false);
    assert.deepEqual(await store.pairing('p1'), {
      ...pending('p1', 'AAAA-AAAA'),
      state: 'approved',
      approvedBy: 'u1',
    });

    assert.equal(await store.rejectPairing('p2', 'u2', T0 + 9), true);
    assert.equal(await store.approvePairing('p2', 'u1'), false);
    assert.equal(await store.rejectPairing('p2', 'u1', T0 + 10), false);
    assert.deepEqual(await store.pairing('p2'), {
      ...pending('p2', 'BBBB-BBBB'),
      state: 'rejected',
      endedAt: T0 + 9,
      approvedBy: 'u2',
    });
    assert.equal(await store.approvePairing('missing', 'u1'), false);
    assert.equal(await store.rejectPairing('missing', 'u1', T0), false);
    assert.deepEqual(await store.pairing('p3'), pending('p3', 'CCCC-CCCC'));
  });

  it('a collected pairing is consumed: it cannot be approved again', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertPairing(pending('p1', 'AAAA-AAAA'));
    await store.insertPairing(pending('p2', 'BBBB-BBBB'));
    await store.approvePairing('p1', 'u1');
    await store.consumePairing('p1', T0 + 20, 'u1');
    assert.deepEqual(await store.pairing('p1'), {
      ...pending('p1', 'AAAA-AAAA'),
      state: 'consumed',
      endedAt: T0 + 20,
      approvedBy: 'u1',
    });
    assert.equal(await store.approvePairing('p1', 'u1'), false);
    assert.equal((await store.pairing('p2'))?.state, 'pending');
  });
});

describe('relay store: installations', () => {
  it('finds an installation by its credential hash only, lists a person’s newest first, names and owners', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1', 'u2');
    await store.insertInstallation(laptop('i1', 'u1', T0), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u1', T0 + 1), 'cred-2');
    await store.insertInstallation(laptop('i3', 'u2', T0 + 2), 'cred-3');
    assert.deepEqual(await store.installationByCredential('cred-2'), {
      installation: laptop('i2', 'u1', T0 + 1),
      storedHash: 'cred-2',
    });
    assert.equal(await store.installationByCredential('cred-4'), undefined);
    assert.deepEqual(await store.installationsOf('u1'), [laptop('i2', 'u1', T0 + 1), laptop('i1', 'u1', T0)]);
    assert.deepEqual(await store.installationsOf('u3'), []);
    assert.equal(await store.installationName('i3'), 'laptop i3');
    assert.equal(await store.installationName('i9'), undefined);
    assert.equal(await store.ownerOfInstallation('i3'), 'u2');
    assert.equal(await store.ownerOfInstallation('i9'), undefined);
  });

  it('revoking an installation removes it with all it delivered, and nothing of another installation or account', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1', 'u2');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u1'), 'cred-2');
    await store.insertInstallation(laptop('i3', 'u2'), 'cred-3');
    for (const id of ['i1', 'i2', 'i3']) {
      await store.insertNotification(id, 'n1', delivered(), T0);
      await store.insertEvent(id, 'notification', '{}', T0);
      await store.insertReplay(id, 'key', { status: 200, body: '{}', requestHash: 'r' }, T0);
    }
    assert.equal(await store.deleteInstallation('i3', 'u1'), false, 'another account’s installation');
    assert.equal(await store.deleteInstallation('i1', 'u1'), true);
    assert.equal(await store.deleteInstallation('i1', 'u1'), false);
    assert.equal(await store.installationByCredential('cred-1'), undefined);
    assert.equal(await store.notification('i1', 'n1'), undefined);
    assert.deepEqual(await store.eventsAfter('i1', 0), []);
    assert.equal(await store.replay('i1', 'key'), undefined);
    for (const id of ['i2', 'i3']) {
      assert.ok(await store.notification(id, 'n1'));
      assert.equal((await store.eventsAfter(id, 0)).length, 1);
      assert.ok(await store.replay(id, 'key'));
    }
  });
});

describe('relay store: notifications', () => {
  it('keeps a notification as delivered, found by its id, its inbox number, and by its owner only', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1', 'u2');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u2'), 'cred-2');
    const stored = await store.insertNotification('i1', 'n1', delivered(), T0 + 3);
    const expected: Stored = {
      ...delivered(),
      inboxId: stored.inboxId,
      installationId: 'i1',
      notificationId: 'n1',
      lifecycle: 1,
      revision: 1,
      answerAction: null,
      answeredAt: null,
      receivedAt: T0 + 3,
    };
    assert.deepEqual(stored, expected);
    assert.deepEqual(await store.notification('i1', 'n1'), expected);
    assert.deepEqual(await store.notificationAt(stored.inboxId), expected);
    assert.deepEqual(await store.notificationOfUser(stored.inboxId, 'u1'), expected);
    assert.equal(await store.notificationOfUser(stored.inboxId, 'u2'), undefined);
    assert.equal(await store.notification('i2', 'n1'), undefined);
    assert.equal(await store.notification('i1', 'n2'), undefined);
    assert.equal(await store.notificationAt(stored.inboxId + 1), undefined);

    const hidden = await store.insertNotification(
      'i2',
      'n1',
      delivered({ messageIncluded: false, senderRevision: null, project: null, actions: [] }),
      T0,
    );
    assert.notEqual(hidden.inboxId, stored.inboxId);
    const read = await store.notificationAt(hidden.inboxId);
    assert.equal(read?.messageIncluded, false);
    assert.equal(read?.senderRevision, null);
    assert.equal(read?.project, null);
    assert.deepEqual(read?.actions, []);
  });

  it('a new lifecycle or revision replaces every field of that notification only', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    const first = await store.insertNotification('i1', 'n1', delivered(), T0);
    const other = await store.insertNotification('i1', 'n2', delivered(), T0);
    const next: Stored = {
      ...first,
      lifecycle: 2,
      revision: 5,
      title: 'Allow Edit?',
      message: 'src/a.ts',
      type: 'question',
      priority: 'low',
      agent: 'codex',
      project: null,
      status: 'resolved',
      actions: [],
      answerAction: 'deny',
      answeredAt: '2026-11-29T07:00:00.000Z',
      createdAt: '2026-11-29T06:30:00.000Z',
      updatedAt: '2026-11-29T06:31:00.000Z',
      receivedAt: T0 + 50,
      senderRevision: 9,
      messageIncluded: false,
    };
    await store.replaceNotification(next, T0 + 60);
    assert.deepEqual(await store.notification('i1', 'n1'), next);
    assert.deepEqual(await store.notification('i1', 'n2'), other);
  });

  it('an answer resolves the notification with the action and its time; a status change sets the status only', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    const one = await store.insertNotification('i1', 'n1', delivered(), T0);
    const two = await store.insertNotification('i1', 'n2', delivered(), T0);
    await store.setAnswer(one.inboxId, 'allow', '2026-11-29T06:10:00.000Z', T0 + 1);
    assert.deepEqual(await store.notificationAt(one.inboxId), {
      ...one,
      status: 'resolved',
      answerAction: 'allow',
      answeredAt: '2026-11-29T06:10:00.000Z',
    });
    await store.setStatus(two.inboxId, 'dismissed', T0 + 1);
    assert.deepEqual(await store.notificationAt(two.inboxId), { ...two, status: 'dismissed' });
  });

  it('makes room by dropping the oldest ended notifications of that installation only, never an active one', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u1'), 'cred-2');
    const ids: number[] = [];
    for (let index = 0; index < 5; index++)
      ids.push((await store.insertNotification('i1', `n${index}`, delivered(), T0 + index)).inboxId);
    for (let index = 0; index < 3; index++)
      await store.insertNotification('i2', `n${index}`, delivered({ status: 'resolved' }), T0);
    const left = async (): Promise<string[]> =>
      (await store.inbox('u1', 100))
        .filter((item) => item.installationId === 'i1')
        .map((item) => item.notificationId)
        .sort();

    assert.equal(await store.makeRoom('i1', 6), true, 'five of six: room left');
    assert.equal(await store.makeRoom('i1', 5), false, 'five of five, all active');
    assert.deepEqual(await left(), ['n0', 'n1', 'n2', 'n3', 'n4']);

    // Ended in this order: n3 first, then n1 and n0 at the same moment (inbox order breaks the tie).
    await store.setStatus(ids[3]!, 'resolved', T0 + 10);
    await store.setStatus(ids[1]!, 'dismissed', T0 + 20);
    await store.setStatus(ids[0]!, 'resolved', T0 + 20);
    assert.equal(await store.makeRoom('i1', 100), true, 'room enough: nothing dropped');
    assert.deepEqual(await left(), ['n0', 'n1', 'n2', 'n3', 'n4']);
    assert.equal(await store.makeRoom('i1', 5), true);
    assert.deepEqual(await left(), ['n0', 'n1', 'n2', 'n4']);
    assert.equal(await store.makeRoom('i1', 3), true);
    assert.deepEqual(await left(), ['n2', 'n4']);
    assert.equal(await store.makeRoom('i1', 2), false, 'only active ones left');
    assert.deepEqual(await left(), ['n2', 'n4']);
    assert.equal((await store.inbox('u1', 100)).length, 5, 'the other installation keeps its three');
  });

  it('lists a person’s inbox: active first, then newest received, bounded, their own only', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1', 'u2');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u2'), 'cred-2');
    await store.insertNotification('i1', 'old-active', delivered(), T0);
    await store.insertNotification('i1', 'new-ended', delivered({ status: 'resolved' }), T0 + 5);
    await store.insertNotification('i1', 'new-active', delivered(), T0 + 5);
    await store.insertNotification('i1', 'mid-active', delivered(), T0 + 3);
    await store.insertNotification('i1', 'old-ended', delivered({ status: 'dismissed' }), T0 + 1);
    await store.insertNotification('i1', 'new-active-2', delivered(), T0 + 5);
    await store.insertNotification('i2', 'foreign', delivered(), T0 + 9);
    const inbox = await store.inbox('u1', 6);
    assert.deepEqual(
      inbox.map((item) => item.notificationId),
      ['new-active-2', 'new-active', 'mid-active', 'old-active', 'new-ended', 'old-ended'],
      'received at the same moment: the later one first',
    );
    assert.deepEqual(inbox[0], {
      ...(await store.notification('i1', 'new-active-2')),
      installationName: 'laptop i1',
    });
    assert.deepEqual(
      (await store.inbox('u1', 5)).map((item) => item.notificationId),
      ['new-active-2', 'new-active', 'mid-active', 'old-active', 'new-ended'],
    );
    assert.deepEqual(
      (await store.inbox('u2', 5)).map((item) => item.notificationId),
      ['foreign'],
    );
  });
});

describe('relay store: idempotency and events', () => {
  it('replays a request’s answer by installation and key', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u1'), 'cred-2');
    await store.insertReplay('i1', 'k1', { status: 201, body: '{"ok":true}', requestHash: 'h1' }, T0);
    assert.deepEqual(await store.replay('i1', 'k1'), { status: 201, body: '{"ok":true}', requestHash: 'h1' });
    assert.equal(await store.replay('i1', 'k2'), undefined);
    assert.equal(await store.replay('i2', 'k1'), undefined);
  });

  it('returns an installation’s events after the given id, in order, its own only, at most 1000', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    await store.insertInstallation(laptop('i2', 'u1'), 'cred-2');
    const first = await store.insertEvent('i1', 'answer', '{"n":0}', T0);
    const foreign = await store.insertEvent('i2', 'answer', '{"n":"x"}', T0);
    const second = await store.insertEvent('i1', 'status', '{"n":1}', T0);
    assert.ok(first < foreign && foreign < second);
    assert.deepEqual(await store.eventsAfter('i1', 0), [
      { id: first, installationId: 'i1', type: 'answer', data: '{"n":0}' },
      { id: second, installationId: 'i1', type: 'status', data: '{"n":1}' },
    ]);
    assert.deepEqual(
      (await store.eventsAfter('i1', first)).map((event) => event.id),
      [second],
    );
    assert.deepEqual(await store.eventsAfter('i1', second), []);

    const ids = [first, second];
    await store.transaction(async () => {
      for (let index = 0; index < 1000; index++) ids.push(await store.insertEvent('i1', 'status', '{}', T0));
    });
    const page = await store.eventsAfter('i1', 0);
    assert.equal(page.length, 1000);
    assert.deepEqual(
      page.map((event) => event.id),
      ids.slice(0, 1000),
    );
    assert.deepEqual(
      (await store.eventsAfter('i1', ids[999]!)).map((event) => event.id),
      ids.slice(1000),
    );
  });
});

describe('relay store: purge', () => {
  it('forgets each kind of record exactly when its retention ends, and nothing before', async () => {
    const { store } = await freshStore();
    await withPeople(store, 'u1');
    await store.insertInstallation(laptop('i1', 'u1'), 'cred-1');
    const now = T0 + 40 * DAY;
    const retention = HOUR;

    // Sessions: one at its lifetime's end, one idle to its limit, one within both.
    await store.insertSession('s-lifetime', 'u1', now - SESSION_LIFETIME_MS);
    await store.insertSession('s-lifetime-kept', 'u1', now - SESSION_LIFETIME_MS + 1);
    await store.db.run("UPDATE sessions SET last_used_at = ? WHERE token_hash LIKE 's-lifetime%'", [now - 1]);
    await store.insertSession('s-idle', 'u1', now - SESSION_IDLE_MS);
    await store.insertSession('s-idle-kept', 'u1', now - SESSION_IDLE_MS + 1);
    await store.insertInvite('inv-gone', 'u1', now - INVITE_LIFETIME_MS);
    await store.insertInvite('inv-kept', 'u1', now - INVITE_LIFETIME_MS + 1);

    // Pairings: a pending one counts from its expiry, an ended one from its end.
    await store.insertPairing({ ...pending('p-expired', 'AAAA'), expiresAt: now - retention });
    await store.insertPairing({ ...pending('p-expired-kept', 'BBBB'), expiresAt: now - retention + 1 });
    await store.insertPairing({ ...pending('p-rejected', 'CCCC'), expiresAt: now + DAY });
    await store.rejectPairing('p-rejected', 'u1', now - retention);
    await store.insertPairing({ ...pending('p-rejected-kept', 'DDDD'), expiresAt: now - DAY });
    await store.rejectPairing('p-rejected-kept', 'u1', now - retention + 1);
    await store.insertPairing({ ...pending('p-consumed', 'EEEE'), expiresAt: now + DAY });
    await store.consumePairing('p-consumed', now - retention, 'u1');
    await store.insertPairing({ ...pending('p-consumed-kept', 'FFFF'), expiresAt: now - DAY });
    await store.consumePairing('p-consumed-kept', now - retention + 1, 'u1');
    await store.insertPairing({ ...pending('p-approved', 'GGGG'), expiresAt: now - retention });
    await store.approvePairing('p-approved', 'u1');

    const gone = await store.insertNotification('i1', 'gone', delivered(), now - 30 * DAY);
    const kept = await store.insertNotification('i1', 'kept', delivered(), now - 30 * DAY + 1);
    // Older than the retention, but changed since: each change restarts it.
    const answered = await store.insertNotification('i1', 'answered', delivered(), now - 31 * DAY);
    await store.setAnswer(answered.inboxId, 'allow', '2026-11-29T06:00:00.000Z', now - DAY);
    const ended = await store.insertNotification('i1', 'ended', delivered(), now - 31 * DAY);
    await store.setStatus(ended.inboxId, 'dismissed', now - DAY);
    const replaced = await store.insertNotification('i1', 'replaced', delivered(), now - 31 * DAY);
    await store.replaceNotification({ ...replaced, lifecycle: 2 }, now - DAY);
    await store.insertReplay('i1', 'gone', { status: 200, body: '', requestHash: '' }, now - DAY);
    await store.insertReplay('i1', 'kept', { status: 200, body: '', requestHash: '' }, now - DAY + 1);
    const oldEvent = await store.insertEvent('i1', 'x', '', now - 7 * DAY);
    const newEvent = await store.insertEvent('i1', 'x', '', now - 7 * DAY + 1);
    await store.db.run('INSERT INTO relay_bus (payload, created_at) VALUES (?, ?), (?, ?)', [
      'gone',
      now - HOUR,
      'kept',
      now - HOUR + 1,
    ]);

    await store.purge(now, retention);

    assert.deepEqual((await store.people.sessionsOf('u1', 0, 0)).map((session) => session.tokenHash).sort(), [
      's-idle-kept',
      's-lifetime-kept',
    ]);
    assert.equal(await store.isLiveInvite('inv-kept', now), true);
    assert.equal(await store.isLiveInvite('inv-gone', 0), false);
    const pairings = await store.db.all('SELECT id FROM pairings ORDER BY id');
    assert.deepEqual(
      pairings.map((row) => row['id']),
      ['p-consumed-kept', 'p-expired-kept', 'p-rejected-kept'],
    );
    assert.equal(await store.notificationAt(gone.inboxId), undefined);
    for (const { inboxId } of [kept, answered, ended, replaced])
      assert.ok(await store.notificationAt(inboxId));
    assert.equal(await store.replay('i1', 'gone'), undefined);
    assert.ok(await store.replay('i1', 'kept'));
    assert.deepEqual(
      (await store.eventsAfter('i1', 0)).map((event) => event.id),
      [newEvent],
    );
    assert.ok(oldEvent < newEvent);
    const bus = await store.db.all('SELECT payload FROM relay_bus');
    assert.deepEqual(
      bus.map((row) => row['payload']),
      ['kept'],
    );
  });
});
