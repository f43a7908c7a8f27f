/**
 * What a person's open pages and senders notice when the People page ends sessions or removes a
 * person: an open inbox closes at once (not at the next change), a removed person's senders lose their
 * event streams, and the session list tells this browser from the others, idle ones left out. The
 * relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { within } from '../support/wait-for.js';
import { join, signedIn, type Account } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const HOUR = 3_600_000;

let relay: InProcessRelay;
let web: WebSession;

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** The browser's inbox open in a tab, its stream started. */
async function openInbox(browser: WebSession): Promise<SseReader> {
  const stream = new SseReader(relay.port, { cookie: browser.cookieHeader() }, '/v1/inbox/stream');
  await stream.until((reader) => reader.text.startsWith('retry:'));
  return stream;
}

/** The ids of the "Sign out" buttons of other sessions on the People page. */
function otherSessionIds(text: string): string[] {
  return [...text.matchAll(/action="\/people\/sessions\/(\d+)\/revoke"/g)].map((match) => match[1]!);
}

function sessionRows(text: string): string[] {
  return [...text.matchAll(/<li class="row session">([^]*?)<\/li>/g)].map((match) => match[1]!);
}

describe('relay people: open inboxes when sessions end', () => {
  const fay: Account = { username: 'fay', password: 'fay has a long password' };
  let here: WebSession;
  before(async () => {
    here = await join(relay, web, fay);
  });

  it("signing out another session closes that browser's open inbox at once", async () => {
    const phone = await signedIn(relay, fay);
    const stream = await openInbox(phone);
    try {
      const id = /action="\/people\/sessions\/(\d+)\/revoke"/.exec((await here.get('/people')).text)?.[1];
      assert.ok(id);
      assert.equal((await here.post(`/people/sessions/${id}/revoke`, {})).status, 200);
      await within(stream.ended, "the signed-out session's inbox to close");
    } finally {
      stream.close();
    }
  });

  it('signing out everywhere else closes the other open inboxes at once', async () => {
    const tablet = await signedIn(relay, fay);
    const theirs = await openInbox(tablet);
    try {
      assert.match((await here.post('/people/sessions/revoke-others', {})).text, /\(1 session\)/);
      await within(theirs.ended, "the other session's inbox to close");
      assert.equal((await here.get('/inbox')).status, 200, 'this browser stays signed in');
    } finally {
      theirs.close();
    }
  });

  it('changing the password closes the other open inboxes at once', async () => {
    const laptop = await signedIn(relay, fay);
    const stream = await openInbox(laptop);
    try {
      const changed = await here.post('/people/password', {
        current_password: fay.password,
        password: 'fay has another long one',
        password_again: 'fay has another long one',
      });
      assert.equal(changed.status, 200, changed.text);
      fay.password = 'fay has another long one';
      await within(stream.ended, "the other session's inbox to close");
    } finally {
      stream.close();
    }
  });
});

describe('relay people: the session list', () => {
  it('marks this browser, lists the others with a button, and leaves out sessions idle for 12 hours', async () => {
    const gus: Account = { username: 'gus', password: 'gus has a long password' };
    const here = await join(relay, web, gus);
    await signedIn(relay, gus);
    const rows = sessionRows((await here.get('/people')).text);
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.equal(rows.filter((row) => row.includes('<strong>This browser</strong>')).length, 1);
    assert.equal(rows.filter((row) => row.includes('Another browser')).length, 1);

    relay.advance(11 * HOUR);
    const fresh = await signedIn(relay, gus);
    relay.advance(2 * HOUR);
    const later = sessionRows((await fresh.get('/people')).text);
    assert.equal(later.length, 1, `only the session used in the last 12 hours: ${later.join('\n')}`);
    assert.match(later[0]!, /This browser/);
  });
});

describe('relay people: removing a person', () => {
  it("closes the removed person's open inbox and their senders' event streams at once", async () => {
    const hal: Account = { username: 'hal', password: 'hal has a long password' };
    const operator = await signedIn(relay);
    const hers = await join(relay, operator, hal);
    const senders = [await pairSender(relay, hers, 'hal-laptop'), await pairSender(relay, hers, 'hal-desk')];
    const inbox = await openInbox(hers);
    const streams = [];
    for (const sender of senders) {
      const stream = new SseReader(
        relay.port,
        { authorization: `Bearer ${sender.credential}` },
        '/v1/events',
      );
      await stream.until((reader) => reader.text.startsWith('retry:'));
      streams.push(stream);
    }
    try {
      const people = await operator.get('/people');
      const halId = new RegExp(`<strong>hal</strong>[^]*?action="/people/([^"]+)/remove"`).exec(
        people.text,
      )?.[1];
      assert.ok(halId);
      const removed = await operator.post(`/people/${halId}/remove`, { confirm: 'yes' });
      assert.equal(removed.status, 200, removed.text);
      await within(inbox.ended, "the removed person's inbox to close");
      for (const stream of streams) await within(stream.ended, "a removed person's sender stream to close");
      for (const sender of senders) {
        assert.equal(
          (await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status,
          401,
        );
      }
      assert.equal((await operator.get('/inbox')).status, 200, 'the operator stays signed in');
    } finally {
      inbox.close();
      for (const stream of streams) stream.close();
    }
  });
});

describe('relay people: removal refused by the people service itself', () => {
  it('never removes the operator nor answers for an unknown person, whatever route asks', async () => {
    const users = await relay.context.relay.users();
    const operator = users.find((user) => user.isOperator)!;
    assert.deepEqual(await relay.context.people.remove(operator.id), {
      result: 'operator',
      username: operator.username,
    });
    assert.deepEqual(await relay.context.people.remove('u_nobody'), { result: 'not_found' });
    const operatorWeb = await signedIn(relay);
    assert.equal((await operatorWeb.get('/inbox')).status, 200, 'the operator is still there');
  });

  it('answers "not found" to the second of two removals of one person at once (two tabs), not "removed" twice', async () => {
    const jo: Account = { username: 'jo', password: 'jo has a long password' };
    const hers = await join(relay, await signedIn(relay), jo);
    const id = (await relay.context.relay.users()).find((user) => user.username === jo.username)!.id;
    const removals = await Promise.all([relay.context.people.remove(id), relay.context.people.remove(id)]);
    assert.deepEqual(
      removals.map((removal) => removal.result),
      ['removed', 'not_found'],
      JSON.stringify(removals),
    );
    assert.deepEqual(removals[0], { result: 'removed', username: 'jo' });
    assert.equal((await hers.get('/inbox')).status, 303, 'jo is signed out');
  });
});

describe('relay people: a sign-out that ends nothing', () => {
  it("leaves the other open inboxes alone: an idle browser's session still ends after 12 hours", async () => {
    const ivy: Account = { username: 'ivy', password: 'ivy has a long password' };
    const here = await join(relay, await signedIn(relay), ivy);
    const before = new Set(otherSessionIds((await here.get('/people')).text));
    const phone = await signedIn(relay, ivy);
    const phoneId = otherSessionIds((await here.get('/people')).text).find((id) => !before.has(id));
    assert.ok(phoneId);
    const laptop = await signedIn(relay, ivy);
    const stream = await openInbox(laptop);
    try {
      assert.equal((await here.post(`/people/sessions/${phoneId}/revoke`, {})).status, 200);
      assert.equal((await phone.get('/inbox')).status, 303, 'the phone is signed out');
      relay.advance(11 * HOUR);
      // This tab's list is old: the phone's button is still there, and the person presses it again.
      const stale = await here.post(`/people/sessions/${phoneId}/revoke`, {});
      assert.equal(stale.status, 404);
      assert.match(stale.text, /No such session: it ended already\./);
      assert.equal((await here.get('/people')).status, 200);
      relay.advance(2 * HOUR);
      assert.equal(
        (await laptop.get('/inbox')).status,
        303,
        'the laptop, idle for 13 hours with its inbox open, is signed out',
      );
    } finally {
      stream.close();
    }
  });
});
