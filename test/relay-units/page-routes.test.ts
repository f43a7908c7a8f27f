/**
 * The relay's pages as a person and an attacker meet them: setup, sign-in and out, invitations,
 * pairing approval, installations. The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createPairing,
  decide,
  OPERATOR,
  pairSender,
  pollOnTime,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { invite as inviteBy, signedIn as signedInAs } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const WEEK_SECONDS = 7 * 24 * 3600;

let relay: InProcessRelay;
let web: WebSession;

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

function sessionCookieOf(page: { headers: Headers }): string | undefined {
  return page.headers.getSetCookie().find((line) => line.startsWith('notify_relay_session='));
}

function csrfCookieOf(page: { headers: Headers }): string | undefined {
  return page.headers.getSetCookie().find((line) => line.startsWith('notify_relay_csrf='));
}

/** A browser signed in as the operator, with its own session. */
function signedIn(next?: string): Promise<WebSession> {
  return signedInAs(relay, OPERATOR, next);
}

function invite(): Promise<string> {
  return inviteBy(web);
}

describe('relay pages: the start page and the frame of every page', () => {
  it('sends a signed-out visitor to the sign-in page and a signed-in person to the inbox', async () => {
    const stranger = await new WebSession(relay).get('/');
    assert.equal(stranger.status, 303);
    assert.equal(stranger.headers.get('location'), '/sign-in');
    const person = await web.get('/');
    assert.equal(person.status, 303);
    assert.equal(person.headers.get('location'), '/inbox');
  });

  it('serves pages as HTML that no cache keeps', async () => {
    const page = await new WebSession(relay).get('/sign-in');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.text, /<title>Sign in · Test relay<\/title>/);
    assert.match(
      page.text,
      /<input name="username" autocomplete="username" required maxlength="40" value="">/,
    );
  });

  it('shows the inbox with its script to a signed-in person, and names them in the navigation', async () => {
    const page = await web.get('/inbox');
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id="inbox"><\/div>/);
    assert.match(page.text, /<script type="module" src="\/assets\/[^"]+\.js"><\/script>/);
    assert.match(page.text, /Sign out ada<\/button>/);
  });

  it('sends a signed-out visitor of a page to sign in first, coming back to that page afterwards', async () => {
    for (const path of ['/inbox', '/installations', '/pair?code=ABCD-EFGH']) {
      const page = await new WebSession(relay).get(path);
      assert.equal(page.status, 303, path);
      assert.equal(page.headers.get('location'), `/sign-in?next=${encodeURIComponent(path)}`);
    }
  });
});

describe('relay pages: first-start setup', () => {
  it('refuses the setup link once the operator account exists, and a wrong or missing token always', async () => {
    const browser = new WebSession(relay);
    const token = new URL(relay.setupUrl).searchParams.get('token')!;
    for (const path of [`/setup?token=${token}`, '/setup?token=nru_wrong', '/setup']) {
      const page = await browser.get(path);
      assert.equal(page.status, 404, path);
      assert.match(page.text, /No setup here/);
      assert.match(page.text, /the operator account exists already, or the relay restarted/);
    }
    const posted = await browser.post('/setup', {
      token,
      username: 'mallory',
      password: 'another long password',
      password_again: 'another long password',
    });
    assert.equal(posted.status, 404);
    assert.match(posted.text, /<h1>No setup here<\/h1><p>This setup link is not valid any more\.<\/p>/);
    assert.equal(sessionCookieOf(posted), undefined);
    assert.equal(
      (await browser.post('/sign-in', { username: 'mallory', password: 'another long password' })).status,
      401,
    );
  });
});

describe('relay pages: a setup link that another relay process has used up', () => {
  it('shows no setup form for a link this process printed once the operator account exists', async () => {
    const second = await startInProcessRelay();
    try {
      const token = new URL(second.setupUrl).searchParams.get('token')!;
      // As another notify-relay process on the same database would: the account exists, this link is stale.
      assert.ok(await second.context.relay.createUser('ops', 'a long enough password', true));
      const page = await new WebSession(second).get(`/setup?token=${token}`);
      assert.equal(page.status, 404);
      assert.match(page.text, /No setup here/);
      assert.doesNotMatch(page.text, /action="\/setup"/);
    } finally {
      await second.cleanup();
    }
  });
});

describe('relay pages: a relay not set up yet', () => {
  let fresh: InProcessRelay;
  before(async () => {
    fresh = await startInProcessRelay();
  });
  after(async () => fresh.cleanup());

  it('says the relay is not set up on its sign-in page', async () => {
    const page = await new WebSession(fresh).get('/sign-in');
    assert.equal(page.status, 200);
    assert.match(page.text, /Not set up yet/);
    assert.match(page.text, /Open the one-time setup link that notify-relay printed when it started\./);
    assert.doesNotMatch(page.text, /name="password"/);
  });

  it('shows the setup form for the printed link, refuses a wrong token, and checks the account it creates', async () => {
    const browser = new WebSession(fresh);
    const token = new URL(fresh.setupUrl).searchParams.get('token')!;
    const wrong = await browser.get('/setup?token=nru_not-the-printed-one');
    assert.equal(wrong.status, 404);
    assert.equal((await browser.get('/setup')).status, 404);
    const form = await browser.get(`/setup?token=${token}`);
    assert.equal(form.status, 200);
    assert.match(form.text, /Set up the operator account/);
    assert.match(form.text, new RegExp(`name="token" value="${token}"`));
    assert.match(form.text, /name="username" autocomplete="username" required maxlength="40" value=""/);
    const blank = await browser.post('/setup', { token, username: 'ops' });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /A password is 10-200 characters long\./);
    const cases: Array<[Record<string, string>, string]> = [
      [{ username: 'no spaces allowed', password: 'a long password here' }, 'A user name is 1-40 letters'],
      [{ username: 'x'.repeat(41), password: 'a long password here' }, 'A user name is 1-40 letters'],
      [{ username: 'ops', password: 'short' }, 'A password is 10-200 characters long.'],
      [{ username: 'ops', password: 'p'.repeat(201) }, 'A password is 10-200 characters long.'],
      [
        { username: 'ops', password: 'a long password here', password_again: 'a different one!!' },
        'The two passwords differ.',
      ],
      [{ username: 'ops', password: 'password1234' }, 'too easy to guess'],
    ];
    for (const [fields, message] of cases) {
      const refused = await browser.post('/setup', {
        token,
        password_again: fields['password']!,
        ...fields,
      });
      assert.equal(refused.status, 400, JSON.stringify(fields));
      assert.match(refused.text, /<h1>Set up the operator account<\/h1>/);
      assert.match(refused.text, /<form method="post" action="\/setup">/);
      assert.match(refused.text, new RegExp(message.replace(/[.]/g, '\\.')), JSON.stringify(fields));
      assert.equal(sessionCookieOf(refused), undefined);
    }
    const wrongToken = await browser.post('/setup', {
      token: 'nru_not-the-printed-one',
      username: 'ops',
      password: 'a long password here',
      password_again: 'a long password here',
    });
    assert.equal(wrongToken.status, 404);
    assert.equal((await new WebSession(fresh).get('/sign-in')).text.includes('Not set up yet'), true);
    const forged = await browser.post('/setup', {
      csrf: 'nrx_forged',
      token,
      username: 'ops',
      password: 'a long password here',
      password_again: 'a long password here',
    });
    assert.equal(forged.status, 403);
    const done = await browser.post('/setup', {
      token,
      username: 'ops',
      password: 'a long password here',
      password_again: 'a long password here',
    });
    assert.equal(done.status, 303, done.text);
    assert.equal(done.headers.get('location'), '/installations');
    assert.ok(sessionCookieOf(done));
    const installations = await browser.get('/installations');
    assert.equal(installations.status, 200);
    assert.match(installations.text, /Sign out ops/);
    assert.match(installations.text, /href="\/people"/);
  });
});

describe('relay pages: sign-in', () => {
  it('keeps the page asked for across the sign-in, but never another site', async () => {
    const browser = new WebSession(relay);
    const form = await browser.get(`/sign-in?next=${encodeURIComponent('/pair?code=ABCD-EFGH')}`);
    assert.match(form.text, /name="next" value="\/pair\?code=ABCD-EFGH"/);
    const foreign = await browser.get(`/sign-in?next=${encodeURIComponent('//evil.example/x')}`);
    assert.match(foreign.text, /name="next" value="\/inbox"/);
    assert.equal((await signedIn('/installations')).cookies.size > 0, true);
    const back = await browser.post('/sign-in', { ...OPERATOR, next: '/installations' });
    assert.equal(back.headers.get('location'), '/installations');
    const away = await new WebSession(relay);
    await away.get('/sign-in');
    const offOrigin = await away.post('/sign-in', { ...OPERATOR, next: 'https://evil.example/' });
    assert.equal(offOrigin.status, 303);
    assert.equal(offOrigin.headers.get('location'), '/inbox');
    const plain = new WebSession(relay);
    await plain.get('/sign-in');
    const noNext = await plain.post('/sign-in', { ...OPERATOR });
    assert.equal(noNext.headers.get('location'), '/inbox');
  });

  it('gives a week-long, HttpOnly, SameSite session cookie and a new CSRF token on sign-in', async () => {
    const browser = new WebSession(relay);
    const form = await browser.get('/sign-in');
    const before = csrfCookieOf(form);
    assert.ok(before);
    const done = await browser.post('/sign-in', { ...OPERATOR });
    const session = sessionCookieOf(done);
    assert.match(
      session ?? '',
      /^notify_relay_session=nrs_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/,
    );
    const csrf = csrfCookieOf(done);
    assert.match(
      csrf ?? '',
      new RegExp(
        `^notify_relay_csrf=nrx_[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${WEEK_SECONDS}$`,
      ),
    );
    assert.notEqual(csrf!.split(';')[0], before.split(';')[0]);
    assert.equal((await browser.get('/inbox')).status, 200);
  });

  it('refuses a wrong password with 401, keeps the name typed, and sets no session', async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const wrong = await browser.post('/sign-in', {
      username: OPERATOR.username,
      password: 'not the password at all',
      next: '/installations',
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Wrong user name or password\./);
    assert.match(wrong.text, /name="username" autocomplete="username" required maxlength="40" value="ada"/);
    assert.match(wrong.text, /name="next" value="\/installations"/);
    assert.equal(sessionCookieOf(wrong), undefined);
    assert.equal((await browser.get('/inbox')).status, 303);
    const nobody = await browser.post('/sign-in', { username: 'nobody', password: OPERATOR.password });
    assert.equal(nobody.status, 401);
  });

  it("refuses a sign-in form without this browser's CSRF token or from another origin, signing nobody in", async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const withoutToken = await browser.post('/sign-in', { ...OPERATOR, csrf: '' });
    assert.equal(withoutToken.status, 403);
    assert.match(withoutToken.text, /Form refused/);
    assert.match(
      withoutToken.text,
      /This form came from another site or has expired\. Reload the page and try again\./,
    );
    assert.equal(sessionCookieOf(withoutToken), undefined);
    const foreign = await browser.post('/sign-in', { ...OPERATOR }, { origin: 'http://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(sessionCookieOf(foreign), undefined);
    assert.equal((await browser.get('/inbox')).status, 303);
  });

  it('asks for a moment (503) while the relay is checking as many passwords as it can at once', async () => {
    relay.advance(15 * 60_000 + 1000);
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        browser.post('/sign-in', { username: `crowd-${index}`, password: 'some long password' }),
      ),
    );
    const busy = answers.filter((answer) => answer.status === 503);
    assert.ok(busy.length >= 1, answers.map((answer) => answer.status).join(' '));
    assert.equal(busy[0]!.headers.get('retry-after'), '1');
    assert.match(busy[0]!.text, /The relay is checking other sign-ins right now\. Try again in a moment\./);
    assert.ok(answers.every((answer) => answer.status === 503 || answer.status === 401));
    relay.advance(15 * 60_000 + 1000);
  });

  it('refuses a form post with no body at all as forged, without failing', async () => {
    const browser = await signedIn();
    for (const path of ['/sign-out', '/sign-in', '/pair']) {
      const response = await fetch(new URL(path, relay.url), {
        method: 'POST',
        headers: { cookie: browser.cookieHeader() },
        redirect: 'manual',
      });
      assert.equal(response.status, 403, path);
      assert.match(await response.text(), /Form refused/);
    }
    assert.equal((await browser.get('/inbox')).status, 200);
  });

  it('lets the right password in again and again: successful sign-ins count as no failure', async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    for (let index = 0; index < 7; index++) {
      await browser.get('/sign-in');
      const done = await browser.post('/sign-in', { ...OPERATOR });
      assert.equal(done.status, 303, `sign-in ${index + 1}: ${done.text}`);
    }
  });

  it('after 5 wrong passwords for a name refuses it for 15 minutes with 429 and Retry-After, then lets it in', async () => {
    relay.advance(15 * 60_000 + 1000);
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    for (let index = 0; index < 5; index++) {
      assert.equal(
        (await browser.post('/sign-in', { ...OPERATOR, password: `wrong password ${index}` })).status,
        401,
      );
    }
    const refused = await browser.post('/sign-in', { ...OPERATOR, next: '/pair' });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, String(retryAfter));
    assert.match(refused.text, /Too many failed sign-ins\. Try again in 15 min\./);
    assert.match(refused.text, /name="next" value="\/pair"/);
    assert.equal(sessionCookieOf(refused), undefined);
    relay.advance(15 * 60_000 + 1000);
    assert.equal((await browser.post('/sign-in', { ...OPERATOR })).status, 303);
  });
});

describe('relay pages: sign-out', () => {
  it('ends the session on the relay, not only in this browser, and clears the cookie', async () => {
    const browser = await signedIn();
    const stolen = browser.cookieHeader();
    await browser.get('/inbox');
    const out = await browser.post('/sign-out', {});
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/sign-in');
    assert.equal(sessionCookieOf(out), 'notify_relay_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    const replayed = await fetch(new URL('/inbox', relay.url), {
      headers: { cookie: stolen },
      redirect: 'manual',
    });
    assert.equal(replayed.status, 303);
  });

  it('refuses a sign-out posted from another site: the session goes on', async () => {
    const browser = await signedIn();
    await browser.get('/inbox');
    const forged = await browser.post('/sign-out', { csrf: 'nrx_forged' });
    assert.equal(forged.status, 403);
    assert.equal(sessionCookieOf(forged), undefined);
    assert.equal((await browser.get('/inbox')).status, 200);
  });

  it('a sign-out without a session just clears the cookie', async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const out = await browser.post('/sign-out', {});
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/sign-in');
  });
});

describe('relay pages: invitations', () => {
  it('refuses an unknown invitation link', async () => {
    for (const path of ['/join?token=nri_made-up', '/join']) {
      const page = await new WebSession(relay).get(path);
      assert.equal(page.status, 404, path);
      assert.match(page.text, /Invitation not valid/);
      assert.match(page.text, /This invitation was used already, has expired, or was mistyped\./);
    }
  });

  it('creates an account once per invitation, with the same rules as setup, and signs it in', async () => {
    const token = await invite();
    const browser = new WebSession(relay);
    const form = await browser.get(`/join?token=${token}`);
    assert.equal(form.status, 200);
    assert.match(form.text, /<h1>Create your account<\/h1>/);
    assert.match(form.text, /<form method="post" action="\/join">/);
    assert.match(form.text, /required maxlength="40" value=""/);
    const blank = await browser.post('/join', { token, username: 'grace' });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /A password is 10-200 characters long\./);
    const weak = await browser.post('/join', {
      token,
      username: 'grace',
      password: 'short',
      password_again: 'short',
    });
    assert.equal(weak.status, 400);
    assert.match(weak.text, /A password is 10-200 characters long\./);
    assert.match(weak.text, /value="grace"/);
    assert.match(weak.text, /<form method="post" action="\/join">/);
    const taken = await browser.post('/join', {
      token,
      username: 'ADA',
      password: 'grace hopper password',
      password_again: 'grace hopper password',
    });
    assert.equal(taken.status, 409);
    assert.match(taken.text, /This user name is taken\./);
    assert.match(taken.text, /<form method="post" action="\/join">/);
    const forged = await browser.post('/join', {
      csrf: 'nrx_forged',
      token,
      username: 'grace',
      password: 'grace hopper password',
      password_again: 'grace hopper password',
    });
    assert.equal(forged.status, 403);
    const done = await browser.post('/join', {
      token,
      username: 'grace',
      password: 'grace hopper password',
      password_again: 'grace hopper password',
    });
    assert.equal(done.status, 303, done.text);
    assert.equal(done.headers.get('location'), '/inbox');
    assert.ok(sessionCookieOf(done));
    const inbox = await browser.get('/inbox');
    assert.equal(inbox.status, 200);
    assert.match(inbox.text, /Sign out grace/);
    const again = await new WebSession(relay);
    assert.equal((await again.get(`/join?token=${token}`)).status, 404);
    const reused = await again.post('/join', {
      token,
      username: 'eve',
      password: 'eve wants an account',
      password_again: 'eve wants an account',
    });
    assert.equal(reused.status, 404);
    assert.match(
      reused.text,
      /<h1>Invitation not valid<\/h1><p>This invitation was used already or has expired\.<\/p>/,
    );
    assert.equal(
      (await again.post('/sign-in', { username: 'eve', password: 'eve wants an account' })).status,
      401,
    );
  });

  it('takes a password of exactly 10 and of exactly 200 characters', async () => {
    let seed = 7;
    const varied = Array.from({ length: 200 }, () => {
      seed = (seed * 48271) % 2147483647;
      return 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[seed % 57];
    }).join('');
    for (const [username, password] of [
      ['ten', 'Qz8vKm2wLp'],
      ['two-hundred', varied],
    ] as const) {
      assert.equal(password.length, username === 'ten' ? 10 : 200);
      const token = await invite();
      const browser = new WebSession(relay);
      await browser.get(`/join?token=${token}`);
      const done = await browser.post('/join', { token, username, password, password_again: password });
      assert.equal(done.status, 303, done.text);
    }
  });

  it('refuses an invitation past its 72 hours', async () => {
    const token = await invite();
    relay.advance(72 * 3600_000 + 60_000);
    const browser = new WebSession(relay);
    assert.equal((await browser.get(`/join?token=${token}`)).status, 404);
    const late = await browser.post('/join', {
      token,
      username: 'late',
      password: 'a late long password',
      password_again: 'a late long password',
    });
    assert.equal(late.status, 404);
    // Three days idle signed the operator out too.
    assert.equal((await web.get('/inbox')).status, 303);
    web = await signedIn();
    await web.get('/inbox');
  });
});

describe('relay pages: pairing a sender', () => {
  it('asks for the code, and tells a wrong code apart from an open request', async () => {
    const empty = await web.get('/pair');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /Enter the code that <code>notify relay pair<\/code> printed/);
    assert.match(empty.text, /placeholder="XXXX-XXXX" value=""/);
    const twice = await web.get('/pair?code=ABCD-EFGH&code=JKLM-NPQR');
    assert.equal(twice.status, 200);
    assert.match(twice.text, /placeholder="XXXX-XXXX" value=""/);
    const unreadable = await web.get('/pair?code=%21%21%21');
    assert.equal(unreadable.status, 404);
    assert.match(unreadable.text, /No open pairing request has this code\./);
    assert.equal((await web.get('/pair?code=%20%20')).status, 200);
    const wrong = await web.get('/pair?code=ZZZZ-ZZZZ-and-a-lot-more-typed');
    assert.equal(wrong.status, 404);
    assert.match(wrong.text, /No open pairing request has this code\./);
    assert.match(wrong.text, /value="ZZZZ-ZZZZ-and-a-lot-"/);
    const pairing = await createPairing(relay, 'build-box');
    const page = await web.get(`/pair?code=${pairing.user_code.toLowerCase().replace('-', ' ')}`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /Approve this sender\?/);
    assert.match(page.text, /<dd id="pair-sender">build-box<\/dd>/);
    assert.match(page.text, /Signed in as <strong>ada<\/strong>/);
    assert.match(page.text, /The request expires in 10 min\./);
    assert.match(page.text, new RegExp(`name="pairing_id" value="${pairing.pairing_id}"`));
  });

  it('approves a sender: the page says so and the sender gets its credential', async () => {
    const pairing = await createPairing(relay, 'approved-box');
    await decide(web, pairing, 'approve');
    const polled = await pollOnTime(relay, pairing);
    assert.equal(polled.body['status'], 'approved');
    const installations = await web.get('/installations');
    assert.match(installations.text, /approved-box/);
  });

  it('the approval page links to the inbox; a rejection refuses the sender', async () => {
    const approved = await createPairing(relay, 'linked-box');
    const done = await web.post('/pair', { pairing_id: approved.pairing_id, decision: 'approve' });
    assert.equal(done.status, 200);
    assert.match(done.text, /<h1>Approved<\/h1>/);
    assert.match(
      done.text,
      /The sender is paired with your account; its terminal says so in a few seconds\./,
    );
    assert.match(done.text, /<a href="\/inbox">Open the inbox<\/a>/);
    const rejected = await createPairing(relay, 'rejected-box');
    const refused = await web.post('/pair', { pairing_id: rejected.pairing_id, decision: 'reject' });
    assert.equal(refused.status, 200);
    assert.match(refused.text, /<h1>Rejected<\/h1>/);
    assert.match(refused.text, /The sender was refused and gets no access\./);
    const polled = await pollOnTime(relay, rejected);
    assert.equal(polled.body['status'], 'rejected', JSON.stringify(polled.body));
  });

  it('never approves an expired request: the page says it is no longer open', async () => {
    const pairing = await createPairing(relay, 'late-box');
    relay.advance(10 * 60_000 + 1000);
    const page = await web.get(`/pair?code=${pairing.user_code}`);
    assert.equal(page.status, 404);
    const late = await web.post('/pair', { pairing_id: pairing.pairing_id, decision: 'approve' });
    assert.equal(late.status, 409);
    assert.match(late.text, /This pairing request is no longer open: it expired or was decided already\./);
    assert.match(late.text, /<a href="\/pair">Enter another code<\/a>/);
    assert.match(late.text, /<h1>Pairing<\/h1>/);
    assert.doesNotMatch(late.text, /Approved/);
  });

  it('decides a request once: a second decision is refused', async () => {
    const pairing = await createPairing(relay, 'twice-box');
    await decide(web, pairing, 'reject');
    const second = await web.post('/pair', { pairing_id: pairing.pairing_id, decision: 'approve' });
    assert.equal(second.status, 409);
    assert.notEqual((await pollOnTime(relay, pairing)).body['status'], 'approved');
  });

  it('refuses a decision other than approve or reject, and one posted from another site', async () => {
    const pairing = await createPairing(relay, 'odd-box');
    const odd = await web.post('/pair', { pairing_id: pairing.pairing_id, decision: 'maybe' });
    assert.equal(odd.status, 400);
    assert.match(odd.text, /<h1>Pairing<\/h1><p>Choose Approve or Reject\.<\/p>/);
    const forged = await web.post(
      '/pair',
      { pairing_id: pairing.pairing_id, decision: 'approve' },
      { origin: 'http://evil.example' },
    );
    assert.equal(forged.status, 403);
    const stranger = new WebSession(relay);
    await stranger.get('/sign-in');
    const signedOut = await stranger.post('/pair', { pairing_id: pairing.pairing_id, decision: 'approve' });
    assert.equal(signedOut.status, 303);
    assert.equal(signedOut.headers.get('location'), '/sign-in?next=%2Fpair');
    assert.equal((await pollOnTime(relay, pairing)).body['status'], 'pending');
  });

  it('after 10 wrong codes in 15 minutes refuses even the right one with 429, then lets it through', async () => {
    relay.advance(15 * 60_000);
    const browser = await signedIn();
    await browser.get('/pair');
    for (let index = 0; index < 10; index++) {
      assert.equal((await browser.get(`/pair?code=WXYZ-${String(index).padStart(4, 'W')}`)).status, 404);
    }
    const pairing = await createPairing(relay, 'guessed-box');
    const limited = await browser.get(`/pair?code=${pairing.user_code}`);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.text, /Too many wrong codes\. Try again in 14 min\./);
    assert.match(limited.text, new RegExp(`value="${pairing.user_code}"`));
    const long = await browser.get(`/pair?code=${pairing.user_code}-and-much-more-typed`);
    assert.equal(long.status, 429);
    assert.match(long.text, new RegExp(`value="${pairing.user_code}-and-much-m"`));
    assert.doesNotMatch(limited.text, /pairing_id/);
    relay.advance(15 * 60_000);
    const fresh = await createPairing(relay, 'later-box');
    assert.equal((await browser.get(`/pair?code=${fresh.user_code}`)).status, 200);
  });
});

describe('relay pages: installations', () => {
  it("shows a sender's name and client as text, never as markup, wherever it appears", async () => {
    const name = `<img src=x onerror="alert('x')">&`;
    const pairing = await createPairing(relay, name);
    const page = await web.get(`/pair?code=${pairing.user_code}`);
    const escaped = '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;';
    assert.ok(page.text.includes(`<dd id="pair-sender">${escaped}</dd>`), page.text);
    assert.doesNotMatch(page.text, /<img/);
    await decide(web, pairing, 'approve');
    assert.equal((await pollOnTime(relay, pairing)).body['status'], 'approved');
    const list = await web.get('/installations');
    assert.ok(list.text.includes(`<strong>${escaped}</strong>`), list.text);
    assert.doesNotMatch(list.text, /<img/);
  });

  it('tells a person with no sender how to pair one, and dates each paired sender in UTC', async () => {
    const token = await invite();
    const newcomer = new WebSession(relay);
    await newcomer.get(`/join?token=${token}`);
    await newcomer.post('/join', {
      token,
      username: 'newcomer',
      password: 'newcomer long password',
      password_again: 'newcomer long password',
    });
    const empty = await newcomer.get('/installations');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /None yet\. Run <code>notify relay pair --url …<\/code> on a sender\./);
    await pairSender(relay, newcomer, 'dated-box');
    const list = await newcomer.get('/installations');
    assert.match(list.text, /notify\/0\.1\.0 · paired \d{4}-\d\d-\d\d \d\d:\d\d UTC · /);
    assert.doesNotMatch(list.text, /None yet/);
  });

  it('lists the senders paired with this account and revokes one after a confirmation', async () => {
    const sender = await pairSender(relay, web, 'revoked-box');
    const list = await web.get('/installations');
    assert.equal(list.status, 200);
    assert.match(list.text, /revoked-box/);
    const confirm = await web.post(`/installations/${sender.installation.id}/revoke`, {});
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Revoke revoked-box\?/);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 200);
    const done = await web.post(`/installations/${sender.installation.id}/revoke`, { confirm: 'yes' });
    assert.equal(done.status, 200);
    assert.match(done.text, /Revoked: its credential is refused from now on\./);
    assert.doesNotMatch(done.text, /<strong>revoked-box<\/strong>/);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 401);
    const again = await web.post(`/installations/${sender.installation.id}/revoke`, { confirm: 'yes' });
    assert.equal(again.status, 404);
    assert.match(again.text, /No such installation\./);
    const unknown = await web.post('/installations/inst_unknown/revoke', {});
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /No such installation\./);
    assert.doesNotMatch(unknown.text, /Revoke [^<]*\?/);
  });

  it("never revokes another person's sender, nor one on a form from another site", async () => {
    const sender = await pairSender(relay, web, 'kept-box');
    const token = await invite();
    const other = new WebSession(relay);
    await other.get(`/join?token=${token}`);
    const joined = await other.post('/join', {
      token,
      username: 'mallory',
      password: 'mallory long password',
      password_again: 'mallory long password',
    });
    assert.equal(joined.status, 303, joined.text);
    await other.get('/installations');
    const foreign = await other.post(`/installations/${sender.installation.id}/revoke`, { confirm: 'yes' });
    assert.equal(foreign.status, 404);
    const forged = await web.post(
      `/installations/${sender.installation.id}/revoke`,
      { confirm: 'yes' },
      { origin: 'http://evil.example' },
    );
    assert.equal(forged.status, 403);
    const stranger = new WebSession(relay);
    await stranger.get('/sign-in');
    const signedOut = await stranger.post(`/installations/${sender.installation.id}/revoke`, {
      confirm: 'yes',
    });
    assert.equal(signedOut.status, 303);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 200);
  });
});
