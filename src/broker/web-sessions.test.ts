import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { openDatabase, type Db } from '../store/database.js';
import { WebSessionStore } from '../store/web-session-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { LOGIN_CODE_TTL_MS, SESSION_IDLE_MS, SESSION_LIFETIME_MS, WebSessions } from './web-sessions.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Sign-in links and the page's sessions on a real database file and a clock the test moves: what a
 * person signing in, coming back later, or signing out everywhere notices.
 */
describe('web sessions', () => {
  let folder: string;
  let db: Db;
  let writes: WriteQueue;
  let now: number;
  let token: string;
  let ended: string[];
  let logged: string[];
  let sessions: WebSessions;
  let store: WebSessionStore;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'notify-web-sessions-'));
    db = openDatabase(join(folder, 'notify.db'));
    writes = new WriteQueue(db);
    now = 1_000_000;
    token = 'the-token-of-the-person';
    ended = [];
    logged = [];
    const log = {
      info: (line: string) => logged.push(line),
      warn: (line: string) => logged.push(line),
      error: (line: string) => logged.push(line),
    };
    store = new WebSessionStore(db);
    sessions = new WebSessions({
      store,
      writes,
      clock: () => now,
      token: () => token,
      log,
      codeEnded: (hash) => ended.push(hash),
    });
  });
  afterEach(() => {
    sessions.forgetCodes();
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
  const signIn = async (userAgent: string | undefined = 'Firefox') => {
    const { code } = sessions.mintLoginCode();
    return (await sessions.signIn(code, userAgent))!;
  };

  it('a sign-in link works once, within 60 seconds, and says it ended', async () => {
    const { code, expiresAt } = sessions.mintLoginCode();
    assert.equal(expiresAt, now + LOGIN_CODE_TTL_MS);
    assert.match(code, /^[A-Za-z0-9_-]{43}$/);
    now += LOGIN_CODE_TTL_MS - 1;
    const signedIn = await sessions.signIn(code, 'Firefox');
    assert.ok(signedIn);
    assert.deepEqual(ended, [sha256(code)], 'its launcher can go');
    assert.equal(await sessions.signIn(code, 'Firefox'), undefined, 'used up');
    assert.ok(logged.some((line) => line === `web page: session ${signedIn.session.id} signed in`));

    const late = sessions.mintLoginCode();
    now += LOGIN_CODE_TTL_MS;
    assert.equal(await sessions.signIn(late.code, 'Firefox'), undefined, 'at 60 s');
  });

  it('refuses a code of another shape, or one never made, and signs nobody in', async () => {
    const { code } = sessions.mintLoginCode();
    for (const wrong of [`${code}x`, `x${code}`, code.slice(1), 'A'.repeat(43)])
      assert.equal(await sessions.signIn(wrong, 'Firefox'), undefined, wrong);
    assert.deepEqual(sessions.list(), []);
    assert.ok(await sessions.signIn(code, 'Firefox'), 'the real one still works');
  });

  it('keeps at most 100 open links: a flood forgets the oldest', async () => {
    const first = sessions.mintLoginCode();
    const second = sessions.mintLoginCode();
    for (let index = 0; index < 98; index++) sessions.mintLoginCode();
    assert.deepEqual(ended, []);
    sessions.mintLoginCode();
    assert.deepEqual(ended, [sha256(first.code)]);
    assert.equal(await sessions.signIn(first.code, 'Firefox'), undefined);
    assert.ok(await sessions.signIn(second.code, 'Firefox'));
  });

  it('forgets expired links when the next one is made', () => {
    const old = sessions.mintLoginCode();
    now += LOGIN_CODE_TTL_MS;
    sessions.mintLoginCode();
    assert.deepEqual(ended, [sha256(old.code)]);
  });

  it('a session is its secret: shown once, stored hashed, with the browser named (cut to 300 characters)', async () => {
    const { secret, session } = await signIn('B'.repeat(400));
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(session.secretHash, sha256(secret));
    assert.equal(session.userAgent, 'B'.repeat(300));
    assert.equal(session.expiresAt, now + SESSION_LIFETIME_MS);
    assert.equal(sessions.authenticate(secret)?.id, session.id);
    assert.equal(sessions.authenticate(`${secret.slice(1)}A`), undefined);
    assert.equal(sessions.authenticate('not a secret'), undefined);
    const unnamed = sessions.mintLoginCode();
    assert.equal((await sessions.signIn(unnamed.code, undefined))!.session.userAgent, null);
    const view = sessions.view(session);
    assert.deepEqual(Object.keys(view), [
      'id',
      'createdAt',
      'lastSeenAt',
      'expiresAt',
      'idleExpiresAt',
      'userAgent',
    ]);
    assert.equal(Date.parse(view.idleExpiresAt) - Date.parse(view.lastSeenAt), SESSION_IDLE_MS);
  });

  it('ends after 12 hours unused, and lives on while used at least once a minute apart', async () => {
    const used = await signIn();
    const idle = await signIn();
    for (let hour = 0; hour < 24; hour += 6) {
      now += 6 * HOUR;
      assert.ok(sessions.authenticate(used.secret), `used at hour ${hour + 6}`);
      await writes.run(() => undefined);
    }
    await writes.run(() => undefined);
    assert.equal(sessions.authenticate(idle.secret), undefined, 'unused for 24 hours');
    assert.deepEqual(
      sessions.list().map((session) => session.id),
      [used.session.id],
    );
    assert.equal(sessions.list()[0]!.lastSeenAt, now, 'the last use is stored');
    now += 30_000;
    sessions.authenticate(used.secret);
    await writes.run(() => undefined);
    assert.equal(sessions.list()[0]!.lastSeenAt, now - 30_000, 'not written again within a minute');
    now += SESSION_IDLE_MS - 30_000 - 1;
    assert.ok(sessions.authenticate(used.secret), 'a moment before its idle end');
  });

  it('a use a minute or more after the last one counts at once in the session it returns', async () => {
    const { secret } = await signIn();
    now += 60_000;
    const session = sessions.authenticate(secret)!;
    // GET /v1/web-session shows this view: its idle end counts from this use, not the sign-in.
    assert.equal(Date.parse(sessions.view(session).idleExpiresAt), now + SESSION_IDLE_MS);
    await writes.run(() => undefined);
  });

  it('ends 7 days after sign-in however much it is used', async () => {
    const { secret } = await signIn();
    for (let hours = 11; hours < 7 * 24; hours += 11) {
      now += 11 * HOUR;
      assert.ok(sessions.authenticate(secret), `after ${hours} hours`);
      await writes.run(() => undefined);
    }
    now += 11 * HOUR;
    assert.equal(sessions.authenticate(secret), undefined);
  });

  it('a session made under another token is refused at once, before the change is noticed', async () => {
    const { secret } = await signIn();
    token = 'edited-in-config-json';
    assert.equal(sessions.authenticate(secret), undefined);
    assert.deepEqual(sessions.list(), []);
  });

  it('revoking one ends that session only; signing out everywhere ends all, and the open links', async () => {
    const [one, two] = [await signIn(), await signIn()];
    ended.length = 0;
    const link = sessions.mintLoginCode();
    assert.equal(await sessions.revoke(one.session.id), true);
    assert.equal(await sessions.revoke(one.session.id), false);
    assert.equal(sessions.authenticate(one.secret), undefined);
    assert.ok(sessions.authenticate(two.secret));
    assert.ok(logged.includes(`web page: session ${one.session.id} revoked`));
    assert.equal(await sessions.revokeAll(), 1);
    assert.ok(logged.includes('web page: all 1 session(s) revoked'));
    assert.equal(sessions.authenticate(two.secret), undefined);
    assert.equal(await sessions.signIn(link.code, 'Firefox'), undefined, 'a link made before');
    assert.deepEqual(ended, [sha256(link.code)]);
  });

  it('a new token ends the sessions and the links made under the old one, not those made after', async () => {
    const before = await signIn();
    const link = sessions.mintLoginCode();
    token = 'a-new-token';
    await sessions.tokenChanged();
    assert.ok(logged.includes('web page: ended 1 session(s) made under another token'), logged.join('\n'));
    assert.equal(sessions.authenticate(before.secret), undefined);
    assert.equal(await sessions.signIn(link.code, 'Firefox'), undefined);
    const after = await signIn();
    assert.ok(sessions.authenticate(after.secret));
    logged.length = 0;
    await sessions.tokenChanged();
    assert.ok(sessions.authenticate(after.secret), 'the same token again ends nothing');
    assert.deepEqual(logged, [], 'and says nothing');
  });

  it("an unused sign-in link's launcher goes when the link expires, with no other link made", () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { code } = sessions.mintLoginCode();
      mock.timers.tick(LOGIN_CODE_TTL_MS - 1);
      assert.deepEqual(ended, []);
      mock.timers.tick(1);
      assert.deepEqual(ended, [sha256(code)]);
    } finally {
      mock.timers.reset();
    }
  });

  it('an ended session presented again is deleted from the database, at exactly 12 hours unused', async () => {
    const { secret, session } = await signIn();
    now += SESSION_IDLE_MS - 1;
    assert.ok(sessions.authenticate(secret), 'a moment before');
    now += 1;
    assert.equal(sessions.authenticate(secret), undefined, 'at its idle end, counted from its last use');
    await writes.run(() => undefined);
    assert.equal(store.bySecretHash(session.secretHash), undefined, 'its hash is gone from disk');
  });

  it('sessions that ended unused leave the database at the next sign-in: signing out everywhere counts the live one', async () => {
    const forgotten = await signIn('Firefox on the old laptop');
    now += SESSION_IDLE_MS;
    const current = await signIn('Chromium');
    assert.equal(
      store.bySecretHash(forgotten.session.secretHash),
      undefined,
      'the ended one is gone from disk',
    );
    assert.ok(store.bySecretHash(current.session.secretHash));
    assert.equal(await sessions.revokeAll(), 1);
    assert.ok(logged.includes('web page: all 1 session(s) revoked'), logged.join('\n'));
  });

  it('used again a minute later, its 12 hours count from that use', async () => {
    const { secret } = await signIn();
    now += MINUTE;
    assert.ok(sessions.authenticate(secret));
    await writes.run(() => undefined);
    assert.equal(sessions.list()[0]!.lastSeenAt, now);
    now += SESSION_IDLE_MS - 1;
    assert.ok(sessions.authenticate(secret));
  });

  it('a use whose record cannot be written still signs in, and the log says why', async () => {
    const { secret } = await signIn();
    mock.method(store, 'touch', () => {
      throw new Error('database or disk is full');
    });
    now += MINUTE;
    assert.ok(sessions.authenticate(secret));
    await writes.run(() => undefined);
    assert.ok(
      logged.includes('web page: a session change was not stored: database or disk is full'),
      logged.join('\n'),
    );
  });

  it('revoking a session that does not exist says nothing happened and logs nothing', async () => {
    await signIn();
    logged.length = 0;
    assert.equal(await sessions.revoke('no-such-session'), false);
    assert.deepEqual(logged, []);
    assert.equal(sessions.list().length, 1);
  });

  it('a session stored by this release before a restart still works; one from before issue 29 ends', async () => {
    const kept = 'A'.repeat(43);
    const cookie = 'B'.repeat(43);
    const stored = (id: string, secret: string, context: string) => ({
      id,
      secretHash: sha256(secret),
      tokenFingerprint: sha256(`${context}\0${token}`),
      userAgent: 'Firefox',
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
    });
    store.insert(stored('kept', kept, 'notify web session token, secret kept by the page'));
    store.insert(stored('cookie', cookie, 'notify web session token'));
    assert.equal(sessions.authenticate(kept)?.id, 'kept');
    assert.equal(sessions.authenticate(cookie), undefined);
    await sessions.tokenChanged();
    assert.deepEqual(
      store.list().map((session) => session.id),
      ['kept'],
    );
  });

  it('works without anyone to tell that a link ended', async () => {
    const quiet = new WebSessions({
      store,
      writes,
      clock: () => now,
      token: () => token,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const { code } = quiet.mintLoginCode();
    assert.ok(await quiet.signIn(code, 'Firefox'));
    quiet.mintLoginCode();
    assert.equal(await quiet.revokeAll(), 1);
  });
});
