/** People management over HTTP: invitations withdrawn, people removed, passwords changed, sessions listed, revoked and idle. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { api, OPERATOR, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor, within } from '../support/wait-for.js';

let relay: RelayProcess;
let operator: WebSession;

before(async () => {
  relay = await startRelay();
  operator = await setUpOperator(relay);
});
after(async () => relay.cleanup());

async function signIn(credentials: { username: string; password: string }): Promise<WebSession> {
  const web = new WebSession(relay);
  await web.get('/sign-in');
  const answer = await web.post('/sign-in', credentials);
  assert.equal(answer.status, 303, answer.text);
  await web.get('/people');
  return web;
}

async function signedIn(web: WebSession): Promise<boolean> {
  return (await web.get('/inbox')).status === 200;
}

/** A link made on the People page, as the operator sends it. */
async function invite(): Promise<string> {
  await operator.get('/people');
  const made = await operator.post('/people/invite', {});
  assert.equal(made.status, 200);
  return /<code class="secret">([^<]+)<\/code>/.exec(made.text)![1]!.replace(/&amp;/g, '&');
}

async function join(link: string, username: string, password: string): Promise<WebSession> {
  const web = new WebSession(relay);
  const path = new URL(link);
  assert.equal((await web.get(path.pathname + path.search)).status, 200);
  const joined = await web.post('/join', {
    token: path.searchParams.get('token')!,
    username,
    password,
    password_again: password,
  });
  assert.equal(joined.status, 303, joined.text);
  await web.get('/people');
  return web;
}

function sessionIds(text: string): string[] {
  return [...text.matchAll(/action="\/people\/sessions\/(\d+)\/revoke"/g)].map((match) => match[1]!);
}

describe('invitations', () => {
  it('the operator withdraws an unused invitation: it leaves the list and its link stops working', async () => {
    const link = await invite();
    const listed = await operator.get('/people');
    const withdraw = /action="(\/people\/invites\/\d+\/withdraw)"/.exec(listed.text)?.[1];
    assert.ok(withdraw, 'the open invitation is listed with Withdraw');
    const done = await operator.post(withdraw!, {});
    assert.equal(done.status, 200);
    assert.match(done.text, /Invitation withdrawn: its link no longer works\./);
    assert.doesNotMatch(done.text, /\/people\/invites\/\d+\/withdraw/);
    const stranger = new WebSession(relay);
    const refused = await stranger.get(new URL(link).pathname + new URL(link).search);
    assert.equal(refused.status, 404);
    assert.match(refused.text, /Invitation not valid/);
  });
});

describe('removing a person', () => {
  it('asks first, then ends their sessions and streams and revokes their installations; the operator stays', async () => {
    const bob = await join(await invite(), 'bob', 'bob has a long password');
    const sender = await pairSender(relay, bob, 'bob-laptop');
    const events = new SseReader(relay.port, { authorization: `Bearer ${sender.credential}` }, '/v1/events');
    const inbox = new SseReader(relay.port, { cookie: bob.cookieHeader() }, '/v1/inbox/stream');
    try {
      await waitFor(() => events.status === 200 && inbox.status === 200, 'both streams open');
      const listed = await operator.get('/people');
      const remove = /action="(\/people\/u_[^"/]+\/remove)"/.exec(listed.text)?.[1];
      assert.ok(remove, 'bob has a Remove button; the operator has none');
      assert.equal([...listed.text.matchAll(/\/remove"/g)].length, 1);

      const asked = await operator.post(remove!, {});
      assert.equal(asked.status, 200);
      assert.match(asked.text, /Remove bob\?/);
      assert.equal(await signedIn(bob), true, 'nothing happens before the second press');

      const removed = await operator.post(remove!, { confirm: 'yes' });
      assert.equal(removed.status, 200);
      assert.match(removed.text, /Removed bob: their sessions ended and their installations were revoked\./);
      await within(events.ended, "the removed person's event stream to end");
      await within(inbox.ended, "the removed person's inbox stream to end");
      assert.equal(await signedIn(bob), false);
      assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 401);
      const again = new WebSession(relay);
      await again.get('/sign-in');
      assert.equal(
        (await again.post('/sign-in', { username: 'bob', password: 'bob has a long password' })).status,
        401,
      );
      assert.equal(await signedIn(operator), true);
    } finally {
      events.close();
      inbox.close();
    }
  });

  it('only the operator removes people', async () => {
    const carol = await join(await invite(), 'carol', 'carol has a long password');
    const people = await operator.get('/people');
    const carolRemove = /action="(\/people\/u_[^"/]+\/remove)"/.exec(people.text)![1]!;
    const refused = await carol.post(carolRemove, { confirm: 'yes' });
    assert.equal(refused.status, 403);
    assert.match(refused.text, /Only the operator manages people\./);
    assert.equal(await signedIn(carol), true);
    assert.doesNotMatch((await carol.get('/people')).text, /\/remove"|Invite someone/);
  });
});

describe('passwords', () => {
  it('changing the password needs the current one and signs out the other sessions, not this one', async () => {
    const dave = await join(await invite(), 'dave', 'dave has a long password');
    const phone = await signIn({ username: 'dave', password: 'dave has a long password' });

    const wrong = await dave.post('/people/password', {
      current_password: 'not the password',
      password: 'dave has a new password',
      password_again: 'dave has a new password',
    });
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /The current password is wrong\. Nothing changed\./);
    assert.equal(await signedIn(phone), true);

    const changed = await dave.post('/people/password', {
      current_password: 'dave has a long password',
      password: 'dave has a new password',
      password_again: 'dave has a new password',
    });
    assert.equal(changed.status, 200);
    assert.match(changed.text, /Password changed\. Your other sessions are signed out\./);
    assert.equal(await signedIn(dave), true);
    assert.equal(await signedIn(phone), false);
    const old = new WebSession(relay);
    await old.get('/sign-in');
    assert.equal(
      (await old.post('/sign-in', { username: 'dave', password: 'dave has a long password' })).status,
      401,
    );
    await signIn({ username: 'dave', password: 'dave has a new password' });
  });
});

describe('sessions', () => {
  it('a person lists their sessions, signs out one, then every other; nobody else sees or ends them', async () => {
    const laptop = await signIn(OPERATOR);
    const phone = await signIn(OPERATOR);
    const tablet = await signIn(OPERATOR);
    const page = await laptop.get('/people');
    assert.equal([...page.text.matchAll(/<strong>This browser<\/strong>/g)].length, 1);
    const phoneId = sessionIds((await phone.get('/people')).text);
    const listed = sessionIds(page.text);
    assert.ok(listed.length >= 3, 'every other session of the operator is listed');
    // The phone's own row has no button, so its id is the one in the laptop's list missing from the phone's.
    const phoneSession = listed.find((id) => !phoneId.includes(id))!;

    const outsider = await join(await invite(), 'erin', 'erin has a long password');
    const foreign = await outsider.post(`/people/sessions/${phoneSession}/revoke`, {});
    assert.equal(foreign.status, 404);
    assert.equal(await signedIn(phone), true);

    const one = await laptop.post(`/people/sessions/${phoneSession}/revoke`, {});
    assert.equal(one.status, 200);
    assert.match(one.text, /That session is signed out\./);
    assert.equal(await signedIn(phone), false);
    assert.equal(await signedIn(tablet), true);

    const rest = await laptop.post('/people/sessions/revoke-others', {});
    assert.equal(rest.status, 200);
    assert.match(rest.text, /Signed out everywhere else/);
    assert.equal(await signedIn(tablet), false);
    assert.equal(await signedIn(operator), false, 'the first session too');
    assert.equal(await signedIn(laptop), true);
    assert.deepEqual(sessionIds((await laptop.get('/people')).text), []);
    operator = laptop;
  });

  it('a session ends after 12 hours unused, while use keeps it going up to its 7 days', async () => {
    const web = await signIn(OPERATOR);
    relay.advance(11 * 3_600_000);
    assert.equal(await signedIn(web), true);
    relay.advance(11 * 3_600_000);
    assert.equal(await signedIn(web), true, 'used 11 hours ago: still on');
    const idle = await signIn(OPERATOR);
    relay.advance(12 * 3_600_000 + 60_000);
    assert.equal(await signedIn(idle), false, '12 hours unused: ended');
    const busy = await signIn(OPERATOR);
    for (let hours = 11; hours < 7 * 24; hours += 11) {
      relay.advance(11 * 3_600_000);
      assert.equal(await signedIn(busy), true, `used every 11 hours: on after ${hours} hours`);
    }
    relay.advance(11 * 3_600_000);
    assert.equal(await signedIn(busy), false, '7 days after sign-in it ends however busy');
  });
});
