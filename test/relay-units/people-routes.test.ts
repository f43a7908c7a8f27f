/**
 * The relay's People page as its people meet it: their password and sessions, and for the operator
 * the people and invitations. The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, OPERATOR, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { invite, join, signedIn } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const PUBLIC_URL = 'https://relay.example.org';

let relay: InProcessRelay;
let web: WebSession;

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** The ids of the "Sign out" buttons of other sessions on the People page. */
function otherSessionIds(text: string): string[] {
  return [...text.matchAll(/action="\/people\/sessions\/(\d+)\/revoke"/g)].map((match) => match[1]!);
}

/** The page's notice as its person meets it: an alert for an error, a status line for success. */
function noticeOf(text: string): { kind: string; role: string; text: string } | undefined {
  const match = /<p class="notice ([^"]*)" role="([^"]*)">([^<]*)<\/p>/.exec(text);
  return match ? { kind: match[1]!, role: match[2]!, text: match[3]! } : undefined;
}

async function stillSignedIn(browser: WebSession): Promise<boolean> {
  return (await browser.get('/inbox')).status === 200;
}

describe('relay People page: what each person sees', () => {
  it('sends a signed-out visitor to sign in first', async () => {
    const page = await new WebSession(relay).get('/people');
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/sign-in?next=%2Fpeople');
  });

  it('shows the operator the people and the invitation button; someone else only their own account', async () => {
    const page = await web.get('/people');
    assert.equal(page.status, 200);
    assert.match(page.text, /<strong>ada<\/strong> \(operator\)/);
    assert.match(page.text, /action="\/people\/invite"/);
    assert.match(page.text, /Change your password/);
    const bob = await join(relay, web, { username: 'bob', password: 'bob has a long password' });
    const own = await bob.get('/people');
    assert.equal(own.status, 200);
    assert.match(own.text, /Change your password/);
    assert.match(own.text, /<strong>This browser<\/strong>/);
    assert.doesNotMatch(own.text, /action="\/people\/invite"/);
    assert.doesNotMatch(own.text, /<strong>ada<\/strong>/);
    const listed = await web.get('/people');
    assert.match(listed.text, /<strong>bob<\/strong>\n/);
    assert.match(listed.text, /action="\/people\/[^"]+\/remove"/);
  });
});

describe("relay People page: changing one's password", () => {
  const carol = { username: 'carol', password: 'carol first password' };
  let browser: WebSession;
  before(async () => {
    browser = await join(relay, web, carol);
  });

  it('refuses a new password that breaks the account rules, changing nothing', async () => {
    for (const [fields, message] of [
      [{}, 'A password is 10-200 characters long.'],
      [{ password: 'short', password_again: 'short' }, 'A password is 10-200 characters long.'],
      [
        { password: 'a new long password', password_again: 'another one entirely' },
        'The two passwords differ.',
      ],
      [{ password: 'aaaaaaaaaaaa', password_again: 'aaaaaaaaaaaa' }, 'This password is too easy to guess'],
    ] as const) {
      const refused = await browser.post('/people/password', { current_password: carol.password, ...fields });
      assert.equal(refused.status, 400, message);
      assert.ok(refused.text.includes(message), refused.text);
      const { kind, role } = noticeOf(refused.text) ?? {};
      assert.deepEqual({ kind, role }, { kind: 'error', role: 'alert' }, 'shown as an error');
    }
    await signedIn(relay, carol);
  });

  it('refuses a wrong current password, and after 5 of them every try for 15 minutes with 429', async () => {
    relay.advance(15 * 60_000 + 1000);
    const fields = { password: 'a brand new password', password_again: 'a brand new password' };
    for (let index = 0; index < 5; index++) {
      const wrong = await browser.post('/people/password', {
        current_password: `wrong guess ${index}`,
        ...fields,
      });
      assert.equal(wrong.status, 400);
      assert.deepEqual(noticeOf(wrong.text), {
        kind: 'error',
        role: 'alert',
        text: 'The current password is wrong. Nothing changed.',
      });
    }
    const limited = await browser.post('/people/password', { current_password: carol.password, ...fields });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 14 * 60);
    assert.deepEqual(noticeOf(limited.text), {
      kind: 'error',
      role: 'alert',
      text: 'Too many wrong passwords. Try again in 15 min. Nothing changed.',
    });
    relay.advance(15 * 60_000 + 1000);
    browser = await signedIn(relay, carol);
  });

  it('changes it: the old one stops working, other sessions end, this one goes on; a second change works too', async () => {
    const other = await signedIn(relay, carol);
    const changed = await browser.post('/people/password', {
      current_password: carol.password,
      password: 'carol second password',
      password_again: 'carol second password',
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(noticeOf(changed.text), {
      kind: 'ok',
      role: 'status',
      text: 'Password changed. Your other sessions are signed out.',
    });
    assert.equal(await stillSignedIn(browser), true);
    assert.equal(await stillSignedIn(other), false);
    const old = new WebSession(relay);
    await old.get('/sign-in');
    assert.equal((await old.post('/sign-in', { ...carol })).status, 401);
    carol.password = 'carol second password';
    await signedIn(relay, carol);
    for (const next of [
      'carol third password',
      'carol fourth password',
      'carol fifth password',
      'carol sixth password',
      'carol final password',
    ]) {
      const again = await browser.post('/people/password', {
        current_password: carol.password,
        password: next,
        password_again: next,
      });
      assert.equal(again.status, 200, `to ${next}: ${again.text}`);
      carol.password = next;
    }
  });

  it('asks for a moment (503) while the relay is checking as many passwords as it can at once, changing nothing', async () => {
    relay.advance(15 * 60_000 + 1000);
    const fields = { password: 'a crowded new password', password_again: 'a crowded new password' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        browser.post('/people/password', { current_password: `crowd guess ${index}`, ...fields }),
      ),
    );
    const busy = answers.filter((answer) => answer.status === 503);
    assert.ok(busy.length >= 1, answers.map((answer) => answer.status).join(' '));
    assert.equal(busy[0]!.headers.get('retry-after'), '1');
    assert.match(
      busy[0]!.text,
      /The relay is checking other passwords right now\. Try again in a moment\. Nothing changed\./,
    );
    assert.ok(answers.every((answer) => [400, 429, 503].includes(answer.status)));
    relay.advance(15 * 60_000 + 1000);
    await signedIn(relay, carol);
  });

  it('refuses a change posted from another site or without a session', async () => {
    const forged = await browser.post(
      '/people/password',
      {
        current_password: carol.password,
        password: 'forged new password',
        password_again: 'forged new password',
      },
      { origin: 'https://evil.example' },
    );
    assert.equal(forged.status, 403);
    const stranger = new WebSession(relay);
    await stranger.get('/sign-in');
    const signedOut = await stranger.post('/people/password', {
      current_password: carol.password,
      password: 'forged new password',
      password_again: 'forged new password',
    });
    assert.equal(signedOut.status, 303);
    await signedIn(relay, carol);
  });
});

describe('relay People page: sessions', () => {
  const dave = { username: 'dave', password: 'dave has a long password' };

  it("signs out one other session by its button, and no one else's", async () => {
    const here = await join(relay, web, dave);
    const phone = await signedIn(relay, dave);
    const ids = otherSessionIds((await here.get('/people')).text);
    assert.equal(ids.length, 1);
    const foreign = await web.post(`/people/sessions/${ids[0]}/revoke`, {});
    assert.equal(foreign.status, 404);
    assert.deepEqual(noticeOf(foreign.text), {
      kind: 'error',
      role: 'alert',
      text: 'No such session: it ended already.',
    });
    // The number exactly as the page shows it: another spelling of it signs no one out.
    for (const spelling of [`+${ids[0]}`, `0x${Number(ids[0]).toString(16)}`]) {
      assert.equal((await here.post(`/people/sessions/${spelling}/revoke`, {})).status, 404, spelling);
    }
    assert.equal(await stillSignedIn(phone), true);
    const done = await here.post(`/people/sessions/${ids[0]}/revoke`, {});
    assert.equal(done.status, 200);
    assert.deepEqual(noticeOf(done.text), {
      kind: 'ok',
      role: 'status',
      text: 'That session is signed out.',
    });
    assert.equal(await stillSignedIn(phone), false);
    assert.equal(await stillSignedIn(here), true);
    assert.equal((await here.post(`/people/sessions/${ids[0]}/revoke`, {})).status, 404);
    assert.equal((await here.post('/people/sessions/not-a-number/revoke', {})).status, 404);
    const forged = await here.post(`/people/sessions/${ids[0]}/revoke`, { csrf: 'nrx_forged' });
    assert.equal(forged.status, 403);
  });

  it('signs out everywhere else, counting the sessions it ended', async () => {
    const here = await signedIn(relay, dave);
    const others = [await signedIn(relay, dave), await signedIn(relay, dave)];
    const page = await here.post('/people/sessions/revoke-others', {});
    assert.equal(page.status, 200);
    assert.match(page.text, /Signed out everywhere else \(\d+ sessions\)\./);
    for (const other of others) assert.equal(await stillSignedIn(other), false);
    assert.equal(await stillSignedIn(here), true);
    await signedIn(relay, dave);
    const one = await here.post('/people/sessions/revoke-others', {});
    assert.deepEqual(noticeOf(one.text), {
      kind: 'ok',
      role: 'status',
      text: 'Signed out everywhere else (1 session).',
    });
    assert.doesNotMatch((await here.get('/people')).text, /Sign out everywhere else/);
    const stranger = new WebSession(relay);
    await stranger.get('/sign-in');
    assert.equal((await stranger.post('/people/sessions/revoke-others', {})).status, 303);
  });
});

describe('relay People page: invitations and removal, the operator only', () => {
  const erin = { username: 'erin', password: 'erin has a long password' };
  let erinWeb: WebSession;
  before(async () => {
    erinWeb = await join(relay, web, erin);
  });

  it('refuses invitations and removals from someone who is not the operator', async () => {
    const invited = await erinWeb.post('/people/invite', {});
    assert.equal(invited.status, 403);
    assert.match(invited.text, /<h1>People<\/h1><p>Only the operator manages people\.<\/p>/);
    assert.doesNotMatch(invited.text, /join\?token=/);
    const bobId = /action="\/people\/([^"]+)\/remove"/.exec((await web.get('/people')).text)?.[1];
    assert.ok(bobId);
    assert.equal((await erinWeb.post(`/people/${bobId}/remove`, { confirm: 'yes' })).status, 403);
    assert.match((await web.get('/people')).text, new RegExp(`action="/people/${bobId}/remove"`));
    await signedIn(relay, { username: 'bob', password: 'bob has a long password' });
    const stranger = new WebSession(relay);
    await stranger.get('/sign-in');
    assert.equal((await stranger.post('/people/invite', {})).status, 303);
    const forged = await web.post('/people/invite', {}, { origin: 'https://evil.example' });
    assert.equal(forged.status, 403);
  });

  it('shows a new invitation link once, on the origin the operator used', async () => {
    const page = await web.post('/people/invite', {});
    assert.equal(page.status, 200);
    assert.match(
      page.text,
      new RegExp(`<code class="secret">${relay.url}/join\\?token=nri_[A-Za-z0-9_-]+</code>`),
    );
    assert.match(page.text, /It works once, for 72 hours, and is not shown again\./);
    assert.doesNotMatch((await web.get('/people')).text, /class="secret"/);
  });

  it('withdraws an invitation: its link stops working, whatever its number', async () => {
    // Ten links at least, so some of them have two-digit numbers.
    for (let index = 0; index < 9; index++) await invite(web);
    const token = await invite(web);
    const page = await web.get('/people');
    const ids = [...page.text.matchAll(/action="\/people\/invites\/(\d+)\/withdraw"/g)].map(
      (match) => match[1]!,
    );
    assert.ok(ids.some((id) => id.length >= 2));
    for (const id of ids) {
      const withdrawn = await web.post(`/people/invites/${id}/withdraw`, {});
      assert.equal(withdrawn.status, 200, `invitation ${id}`);
      assert.deepEqual(noticeOf(withdrawn.text), {
        kind: 'ok',
        role: 'status',
        text: 'Invitation withdrawn: its link no longer works.',
      });
    }
    assert.equal((await new WebSession(relay).get(`/join?token=${token}`)).status, 404);
    const again = await web.post(`/people/invites/${ids[0]}/withdraw`, {});
    assert.equal(again.status, 404);
    assert.deepEqual(noticeOf(again.text), {
      kind: 'error',
      role: 'alert',
      text: 'No such invitation: it was used, withdrawn or has expired.',
    });
    assert.equal((await web.post('/people/invites/abc/withdraw', {})).status, 404);
    const fresh = await invite(web);
    const freshId = /action="\/people\/invites\/(\d+)\/withdraw"/.exec((await web.get('/people')).text)?.[1];
    assert.equal((await erinWeb.post(`/people/invites/${freshId}/withdraw`, {})).status, 403);
    assert.equal((await new WebSession(relay).get(`/join?token=${fresh}`)).status, 200);
  });

  it('removes a person after a confirmation: their sessions end and their senders are refused', async () => {
    const sender = await pairSender(relay, erinWeb, 'erin-laptop');
    const people = await web.get('/people');
    const erinId = new RegExp(`<strong>erin</strong>[^]*?action="/people/([^"]+)/remove"`).exec(
      people.text,
    )?.[1];
    assert.ok(erinId);
    const confirm = await web.post(`/people/${erinId}/remove`, {});
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Remove erin\?/);
    assert.equal(await stillSignedIn(erinWeb), true);
    const removed = await web.post(`/people/${erinId}/remove`, { confirm: 'yes' });
    assert.equal(removed.status, 200);
    assert.deepEqual(noticeOf(removed.text), {
      kind: 'ok',
      role: 'status',
      text: 'Removed erin: their sessions ended and their installations were revoked.',
    });
    assert.equal(await stillSignedIn(erinWeb), false);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 401);
    const again = await web.post(`/people/${erinId}/remove`, { confirm: 'yes' });
    assert.equal(again.status, 404);
    assert.match(again.text, /No such person: removed already\?/);
  });

  it('removes a person pressed in two tabs at once only once: the other tab says not found', async () => {
    const kim = { username: 'kim', password: 'kim has a long password' };
    await join(relay, web, kim);
    const kimId = new RegExp(`<strong>kim</strong>[^]*?action="/people/([^"]+)/remove"`).exec(
      (await web.get('/people')).text,
    )?.[1];
    assert.ok(kimId);
    // Another write holds the database while both presses arrive, so both pass the page's own check.
    let release!: () => void;
    const held = relay.store.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    const tabs = Promise.all([
      web.post(`/people/${kimId}/remove`, { confirm: 'yes' }),
      web.post(`/people/${kimId}/remove`, { confirm: 'yes' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await held;
    assert.deepEqual(
      (await tabs).map((tab) => [tab.status, noticeOf(tab.text)?.kind, noticeOf(tab.text)?.text]).sort(),
      [
        [200, 'ok', 'Removed kim: their sessions ended and their installations were revoked.'],
        [404, 'error', 'No such person: removed already?'],
      ],
    );
  });

  it('never removes the operator', async () => {
    const operatorId = (await relay.context.relay.users()).find((user) => user.isOperator)!.id;
    const refused = await web.post(`/people/${operatorId}/remove`, { confirm: 'yes' });
    assert.equal(refused.status, 400);
    assert.deepEqual(noticeOf(refused.text), {
      kind: 'error',
      role: 'alert',
      text: 'The operator cannot be removed.',
    });
    await signedIn(relay, OPERATOR);
  });
});

describe('relay People page: behind a public URL', () => {
  let behind: InProcessRelay;
  before(async () => {
    behind = await startInProcessRelay({ publicUrl: PUBLIC_URL });
  });
  after(async () => behind.cleanup());

  it('makes invitation links on the public URL, not the address the request came to', async () => {
    const operator = await setUpOperator(behind);
    const page = await operator.post('/people/invite', {}, { origin: PUBLIC_URL });
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<code class="secret">https:\/\/relay\.example\.org\/join\?token=nri_/);
  });
});
