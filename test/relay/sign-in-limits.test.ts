/** Sign-in limits against a parallel burst and against guesses from other addresses, on the real notify-relay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { OPERATOR, setUpOperator, WebSession, type PageResponse } from '../support/relay-web.js';

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

function wrong(index: number): { username: string; password: string } {
  return { username: OPERATOR.username, password: `wrong-${index}-password` };
}

describe('sign-in limits', () => {
  it('parallel bursts of 41 sign-ins, the right password among them, check at most 5 wrong passwords of a name from one address', async () => {
    freshWindow();
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const seen: number[] = [];
    let last: PageResponse[] = [];
    for (let burst = 0; burst < 10; burst++) {
      const attempts = [...Array.from({ length: 40 }, (_, index) => wrong(burst * 40 + index)), OPERATOR];
      last = await Promise.all(attempts.map((fields) => browser.post('/sign-in', fields)));
      seen.push(...last.map((response) => response.status));
      if (last.every((response) => response.status === 429)) break;
    }
    const checkedWrong = seen.filter((status) => status === 401).length;
    assert.ok(checkedWrong <= 5, `${checkedWrong} wrong passwords were checked: ${seen.join(' ')}`);
    assert.deepEqual(
      seen.filter((status) => ![401, 303, 429, 503].includes(status)),
      [],
      'every attempt is checked, limited (429) or refused while the relay is busy (503)',
    );
    assert.ok(
      last.every((response) => response.status === 429),
      'once the limit is reached, the right password is refused too',
    );
    const limited = last[40]!;
    assert.match(limited.text, /Too many failed sign-ins\. Try again in \d+ min\./);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });

  it('wrong passwords from another address do not lock the person out; they slow that name down by a wait that grows', async () => {
    freshWindow();
    const attacker = new WebSession(relay, { localAddress: '127.0.0.2' });
    await attacker.get('/sign-in');
    for (let index = 0; index < 5; index++) {
      assert.equal((await attacker.post('/sign-in', wrong(index))).status, 401);
    }
    const locked = await attacker.post('/sign-in', wrong(5));
    assert.equal(locked.status, 429, 'the guessing address is stopped');

    relay.advance(2_000);
    const person = new WebSession(relay);
    await person.get('/sign-in');
    const signedIn = await person.post('/sign-in', OPERATOR);
    assert.equal(signedIn.status, 303, signedIn.text);
    assert.match(person.cookies.get('notify_relay_session') ?? '', /^nrs_/);
    assert.equal((await attacker.post('/sign-in', OPERATOR)).status, 429, 'still stopped at 127.0.0.2');

    const elsewhere = new WebSession(relay, { localAddress: '127.0.0.3' });
    await elsewhere.get('/sign-in');
    const waits: number[] = [];
    for (let index = 0; index < 3; index++) {
      assert.equal((await elsewhere.post('/sign-in', wrong(10 + index))).status, 401);
      const slowed = await elsewhere.post('/sign-in', wrong(20 + index));
      assert.equal(slowed.status, 429);
      waits.push(Number(slowed.headers.get('retry-after')));
      relay.advance(waits.at(-1)! * 1000);
    }
    assert.deepEqual(waits, [2, 4, 8], 'the wait for that name doubles with every failure');
  });
});
