/** The People page's current-password check is limited like sign-in, on the real notify-relay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { OPERATOR, setUpOperator, WebSession, type PageResponse } from '../support/relay-web.js';

const NEW_PASSWORD = 'a brand new long passphrase';

let relay: RelayProcess;

before(async () => {
  relay = await startRelay();
  await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** A fresh 15-minute window for every test: no counter carries over. */
function freshWindow(): void {
  relay.advance(16 * 60_000);
}

async function signIn(localAddress?: string): Promise<WebSession> {
  const web = new WebSession(relay, localAddress ? { localAddress } : {});
  await web.get('/sign-in');
  const answer = await web.post('/sign-in', OPERATOR);
  assert.equal(answer.status, 303, answer.text);
  assert.equal((await web.get('/people')).status, 200);
  return web;
}

function change(current: string): Record<string, string> {
  return { current_password: current, password: NEW_PASSWORD, password_again: NEW_PASSWORD };
}

async function burst(web: WebSession, currents: string[]): Promise<PageResponse[]> {
  return Promise.all(currents.map((current) => web.post('/people/password', change(current))));
}

function wrongGuesses(from: number): string[] {
  return Array.from({ length: 20 }, (_, index) => `wrong-${from + index}-guess`);
}

describe('change-password limits', () => {
  it('bursts of wrong current passwords check at most 5 of them; then even the right one is refused and changes nothing', async () => {
    freshWindow();
    const phone = await signIn('127.0.0.2');
    const stolen = await signIn();
    const seen: number[] = [];
    let limitedAll = false;
    for (let round = 0; round < 6 && !limitedAll; round++) {
      const statuses = (await burst(stolen, wrongGuesses(round * 20))).map((response) => response.status);
      seen.push(...statuses);
      limitedAll = statuses.every((status) => status === 429);
    }
    const checked = seen.filter((status) => status === 400).length;
    assert.ok(checked <= 5, `${checked} wrong current passwords were checked: ${seen.join(' ')}`);
    assert.deepEqual(
      seen.filter((status) => ![400, 429, 503].includes(status)),
      [],
      'every guess is checked (400), limited (429) or refused while the relay is busy (503)',
    );

    const last = await burst(stolen, [...wrongGuesses(200), OPERATOR.password]);
    assert.deepEqual(
      last.map((response) => response.status),
      last.map(() => 429),
      'once the limit is reached, the right current password is refused too',
    );
    const limited = last.at(-1)!;
    assert.match(limited.text, /Too many wrong passwords\. Try again in \d+ min\. Nothing changed\./);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);

    const signInHere = new WebSession(relay);
    await signInHere.get('/sign-in');
    assert.equal(
      (await signInHere.post('/sign-in', OPERATOR)).status,
      429,
      'the guesses count against signing in as that person from that address too',
    );
    assert.equal((await phone.get('/inbox')).status, 200, 'the other session was not signed out');
    freshWindow();
    await signIn();
    const withNew = new WebSession(relay);
    await withNew.get('/sign-in');
    const refused = await withNew.post('/sign-in', { username: OPERATOR.username, password: NEW_PASSWORD });
    assert.equal(refused.status, 401, 'the password did not change');
  });

  it('a burst of current-password checks beyond the 4 at once is refused with 503', async () => {
    let busy: PageResponse | undefined;
    for (let round = 0; round < 3 && !busy; round++) {
      freshWindow();
      const web = await signIn();
      const answers = await burst(web, wrongGuesses(round * 20));
      assert.deepEqual(
        answers.filter((response) => ![400, 429, 503].includes(response.status)).map((r) => r.status),
        [],
      );
      busy = answers.find((response) => response.status === 503);
    }
    assert.ok(busy, 'some checks of the burst were refused while 4 ran');
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.match(busy.text, /The relay is checking other passwords right now\. Try again in a moment\./);
  });
});
