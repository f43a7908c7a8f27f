/** Account rules of the real notify-relay: one operator, names without case, no easy passwords, safe `next`. */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { OPERATOR, WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';

let relay: RelayProcess;
/** Whoever won the setup race is the operator the later tests sign in as. */
let operator = '';

before(async () => {
  relay = await startRelay();
  await waitFor(() => relay.setupUrl, 'the setup link');
});
after(async () => relay.cleanup());

function setupPath(): string {
  return new URL(relay.setupUrl!).pathname + new URL(relay.setupUrl!).search;
}

function setupToken(): string {
  return new URL(relay.setupUrl!).searchParams.get('token')!;
}

async function signIn(username: string, password: string, next?: string) {
  const browser = new WebSession(relay);
  await browser.get('/sign-in');
  return { browser, response: await browser.post('/sign-in', { username, password, ...(next && { next }) }) };
}

describe('account rules', () => {
  it('refuses a common, repeated or sequential password with a clear message and creates nothing', async () => {
    const browser = new WebSession(relay);
    await browser.get(setupPath());
    for (const password of ['aaaaaaaaaa', '1234567890', 'abcdefghij', 'qwertyuiop', 'Password123']) {
      const refused = await browser.post('/setup', {
        token: setupToken(),
        username: 'operator',
        password,
        password_again: password,
      });
      assert.equal(refused.status, 400, password);
      assert.match(refused.text, /This password is too easy to guess/);
    }
    assert.equal((await new WebSession(relay).get(setupPath())).status, 200, 'the setup link still works');
  });

  it('two simultaneous uses of the setup link make one operator', async () => {
    const first = new WebSession(relay);
    const second = new WebSession(relay);
    await first.get(setupPath());
    await second.get(setupPath());
    const form = (username: string) => ({
      token: setupToken(),
      username,
      password: OPERATOR.password,
      password_again: OPERATOR.password,
    });
    const results = await Promise.all([
      first.post('/setup', form('ada')),
      second.post('/setup', form('eve')),
    ]);
    assert.deepEqual(results.map((result) => result.status).sort(), [303, 409]);
    const winner = results[0]!.status === 303 ? 'ada' : 'eve';
    operator = winner;
    const loser = winner === 'ada' ? 'eve' : 'ada';
    const people = await (winner === 'ada' ? first : second).get('/people');
    assert.equal(people.status, 200);
    assert.equal(people.text.match(/<li class="row person">/g)?.length, 1, people.text);
    assert.equal((await signIn(loser, OPERATOR.password)).response.status, 401, 'no second account');
  });

  it('compares user names without case: Ada is taken beside ada, and ADA signs ada in', async () => {
    const { browser: ada } = await signIn(operator, OPERATOR.password);
    await ada.get('/people');
    const link = /(http:\/\/[^<\s]+\/join\?token=nri_[A-Za-z0-9_-]{43})/.exec(
      (await ada.post('/people/invite', {})).text,
    )?.[1];
    assert.ok(link);
    const invited = new WebSession(relay);
    await invited.get(new URL(link).pathname + new URL(link).search);
    const taken = await invited.post('/join', {
      token: new URL(link).searchParams.get('token')!,
      username: operator[0]!.toUpperCase() + operator.slice(1),
      password: 'another long password',
      password_again: 'another long password',
    });
    assert.equal(taken.status, 409);
    assert.match(taken.text, /This user name is taken\./);
    const { browser, response } = await signIn(operator.toUpperCase(), OPERATOR.password);
    assert.equal(response.status, 303);
    assert.match((await browser.get('/inbox')).text, new RegExp(`Sign out ${operator}<`));
  });

  it('after sign-in, goes only to a path on this origin: TAB, CR and LF in next lead to the inbox', async () => {
    for (const next of [
      '/\t/evil.example',
      '/\r\n/evil.example',
      '/\n/evil.example',
      '//evil.example',
      '/\\evil',
    ]) {
      relay.advance(16 * 60_000);
      const { response } = await signIn(operator, OPERATOR.password, next);
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.headers.get('location'), '/inbox', JSON.stringify(next));
    }
    const { response } = await signIn(operator, OPERATOR.password, '/pair?code=BCDF-GHJK');
    assert.equal(response.headers.get('location'), '/pair?code=BCDF-GHJK');
  });

  it('keeps accounts from before the rule that differ only in case, each by its exact spelling, and says so', async () => {
    const legacy = await startRelay();
    try {
      const setup = new WebSession(legacy);
      await waitFor(() => legacy.setupUrl, 'the setup link');
      const url = new URL(legacy.setupUrl!);
      await setup.get(url.pathname + url.search);
      const password = 'lower case password';
      await setup.post('/setup', {
        token: url.searchParams.get('token')!,
        username: 'operator',
        password,
        password_again: password,
      });
      await legacy.stop();
      const db = new Database(join(legacy.dataDir, 'relay.db'));
      const hash = (db.prepare('SELECT password_hash FROM users').get() as { password_hash: string })
        .password_hash;
      db.prepare('DROP INDEX users_by_name_nocase').run();
      db.prepare(
        'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, 0, ?)',
      ).run('u_legacy', 'Operator', hash, Date.now() + 1);
      db.close();
      const restarted = await startRelay({ dataDir: legacy.dataDir });
      try {
        await waitFor(
          () =>
            /the accounts (operator, Operator|Operator, operator) differ only in case/.test(
              restarted.output(),
            ),
          'the warning',
        );
        for (const [username, expected] of [
          ['operator', /Sign out operator</],
          ['Operator', /Sign out Operator</],
        ] as const) {
          const browser = new WebSession(restarted);
          await browser.get('/sign-in');
          assert.equal((await browser.post('/sign-in', { username, password })).status, 303);
          assert.match((await browser.get('/inbox')).text, expected);
        }
      } finally {
        await restarted.cleanup();
      }
    } finally {
      await legacy.cleanup();
    }
  });
});
