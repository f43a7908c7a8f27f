/**
 * The relay's server-rendered pages as a browser reads them: every value a person or a sender chose is
 * shown as text, never as markup; every form that changes something carries the CSRF field; each page
 * offers exactly the buttons its reader may press.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pairing } from '../domain/pairing.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords.js';
import type { Installation } from '../store.js';
import { messagePage, newAccountPage, signInPage } from './account-pages.js';
import { csrfField, escape, notice, page, type PageFrame } from './html.js';
import {
  confirmPairingPage,
  confirmRevokePage,
  enterCodePage,
  inboxPage,
  installationsPage,
} from './pair-pages.js';
import { confirmRemovalPage, peoplePage, type PeopleView } from './people-pages.js';

const HOSTILE = `<img src=x onerror="alert('1')">&amp;`;
const HOSTILE_SHOWN = '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;amp;';
const CSRF = 'csrf-token-value';
const FIELD = `<input type="hidden" name="csrf" value="${CSRF}">`;

const signedOut: PageFrame = { relayName: 'Home relay', csrf: CSRF };
const signedIn: PageFrame = { ...signedOut, user: { username: 'ada', isOperator: true } };

/** Every `<form method="post">…</form>` of a page's own content (not the navigation's sign-out), in order. */
function postForms(html: string): string[] {
  const content = /<main>[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
  return [...content.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((match) => match[0]);
}

function assertEveryPostFormHasCsrf(html: string): void {
  const forms = [...html.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((match) => match[0]);
  assert.ok(forms.length > 0, 'the page has a form that changes something');
  for (const form of forms) assert.ok(form.includes(FIELD), `form without the CSRF field: ${form}`);
}

/** The page shows the hostile text escaped, and nowhere as markup. */
function assertShownAsText(html: string): void {
  assert.ok(html.includes(HOSTILE_SHOWN), 'the value is shown');
  assert.ok(!html.includes('<img'), 'the value is not markup');
  assert.ok(!html.includes(`onerror="`), 'no attribute was injected');
}

const pairing = (changes: Partial<Pairing> = {}): Pairing => ({
  id: 'pairing-1',
  secretHash: 'hash',
  userCode: 'ABCDEFGH',
  senderName: 'laptop',
  client: 'notify 1.0',
  createdAt: 0,
  expiresAt: 600_000,
  intervalSeconds: 5,
  lastPollAt: null,
  state: 'pending',
  endedAt: null,
  approvedBy: null,
  ...changes,
});

const installation = (changes: Partial<Installation> = {}): Installation => ({
  id: 'inst-1',
  userId: 'user-1',
  name: 'laptop',
  client: 'notify 1.0',
  createdAt: Date.UTC(2026, 10, 29, 6, 7, 30),
  ...changes,
});

describe('relay pages: escaping and the frame', () => {
  it('escapes the five characters that could end text or an attribute', () => {
    assert.equal(escape(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&#39;f');
    assert.equal(escape('&&<<'), '&amp;&amp;&lt;&lt;', 'every occurrence, not only the first');
    assert.equal(escape(42), '42');
  });

  it('frames a signed-out page with its title, the relay name and no navigation', () => {
    const html = page({ ...signedOut, relayName: HOSTILE }, `Title ${HOSTILE}`, '<p>body</p>');
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.ok(html.includes(`<title>Title ${HOSTILE_SHOWN} · ${HOSTILE_SHOWN}</title>`));
    assert.ok(html.includes(`<span class="brand">${HOSTILE_SHOWN}</span>`));
    assert.ok(html.includes(`<meta name="csrf-token" content="${CSRF}">`));
    assert.ok(html.includes('<main><p>body</p></main>'));
    assert.ok(html.includes('<link rel="manifest" href="/manifest.webmanifest">'));
    assert.ok(!html.includes('<nav>'), 'a stranger sees no navigation');
    assert.ok(!html.includes('<script'), 'a page without assets runs no script');
    assertShownAsText(html);
  });

  it('gives a signed-in person the navigation and a sign-out button naming them', () => {
    const html = page({ ...signedIn, user: { username: HOSTILE, isOperator: false } }, 'Inbox', '');
    const nav = /<nav>[\s\S]*<\/nav>/.exec(html)?.[0] ?? '';
    for (const href of ['/inbox', '/pair', '/installations', '/people']) {
      assert.ok(nav.includes(`<a href="${href}">`), `navigation links ${href}`);
    }
    assert.ok(nav.includes(`<form method="post" action="/sign-out">${FIELD}`));
    assert.ok(nav.includes(`Sign out ${HOSTILE_SHOWN}</button>`));
    assertShownAsText(html);
  });

  it("puts the inbox's own stylesheet before the relay's, and loads its script as a module", () => {
    const html = page(
      { ...signedIn, assets: { script: '/assets/inbox.js', stylesheet: '/assets/inbox.css' } },
      'Inbox',
      '',
    );
    assert.ok(
      html.includes(
        '<link rel="stylesheet" href="/assets/inbox.css"><link rel="stylesheet" href="/assets/relay.css"><script type="module" src="/assets/inbox.js"></script>',
      ),
    );
    const plain = page(signedIn, 'Inbox', '');
    assert.ok(plain.includes('<link rel="stylesheet" href="/assets/relay.css"></head>'));
  });

  it('marks an error as an alert and a success as a status, with the text escaped', () => {
    assert.equal(notice('error', HOSTILE), `<p class="notice error" role="alert">${HOSTILE_SHOWN}</p>`);
    assert.equal(notice('ok', 'Done.'), '<p class="notice ok" role="status">Done.</p>');
    assert.equal(csrfField(`"x`), '<input type="hidden" name="csrf" value="&quot;x">');
  });
});

describe('relay pages: accounts', () => {
  it('keeps the typed name and the page to go back to on the sign-in page, escaped', () => {
    const html = signInPage(signedOut, HOSTILE, HOSTILE, HOSTILE);
    assert.ok(html.includes('<title>Sign in · Home relay</title>'));
    assert.ok(html.includes(`<p class="notice error" role="alert">${HOSTILE_SHOWN}</p>`));
    assert.ok(html.includes(`<input type="hidden" name="next" value="${HOSTILE_SHOWN}">`));
    assert.ok(html.includes(`maxlength="40" value="${HOSTILE_SHOWN}">`));
    assert.ok(html.includes(`autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}"`));
    assert.equal(postForms(html)[0]?.startsWith('<form method="post" action="/sign-in">'), true);
    assertEveryPostFormHasCsrf(html);
    assertShownAsText(html);
    assert.ok(!signInPage(signedOut, '/inbox', '').includes('role="alert"'), 'no error, no alert');
  });

  it('sets up the operator account and an invited account with their own heading, form and token', () => {
    const setup = newAccountPage(signedOut, 'setup', HOSTILE, HOSTILE);
    assert.ok(setup.includes('<h1>Set up the operator account</h1>'));
    assert.ok(setup.includes('<title>Set up the operator account · Home relay</title>'));
    assert.ok(setup.includes('<form method="post" action="/setup">'));
    assert.ok(setup.includes(`<input type="hidden" name="token" value="${HOSTILE_SHOWN}">`));
    assert.ok(setup.includes(`maxlength="40" value="${HOSTILE_SHOWN}">`));
    assertShownAsText(setup);
    const join = newAccountPage(signedOut, 'join', 'tok', 'bo', 'That name is taken.');
    assert.ok(join.includes('<h1>Create your account</h1>'));
    assert.ok(join.includes('<form method="post" action="/join">'));
    assert.ok(join.includes('<p class="notice error" role="alert">That name is taken.</p>'));
    assert.ok(
      join.includes(
        `required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"></label>\n<label>Password again<input name="password_again" type="password" autocomplete="new-password" required></label>`,
      ),
    );
    assertEveryPostFormHasCsrf(join);
    assert.ok(!setup.includes('role="alert"'));
  });

  it('shows a message with an optional link, all escaped', () => {
    const html = messagePage(signedOut, HOSTILE, HOSTILE, { href: `/x?a="b"`, label: HOSTILE });
    assert.ok(
      html.includes(
        `<h1>${HOSTILE_SHOWN}</h1><p>${HOSTILE_SHOWN}</p><p><a href="/x?a=&quot;b&quot;">${HOSTILE_SHOWN}</a></p>`,
      ),
    );
    assertShownAsText(html);
    assert.ok(
      !messagePage(signedOut, 'Gone', 'It is gone.').includes('<a href'),
      'no link asked, none shown',
    );
  });
});

describe('relay pages: pairing and installations', () => {
  it('keeps the typed code on the code page and says what went wrong', () => {
    const html = enterCodePage(signedIn, HOSTILE, HOSTILE);
    assert.ok(html.includes('<form method="get" action="/pair">'));
    assert.ok(html.includes(`placeholder="XXXX-XXXX" value="${HOSTILE_SHOWN}">`));
    assert.ok(html.includes(`role="alert">${HOSTILE_SHOWN}</p>`));
    assertShownAsText(html);
    assert.ok(!enterCodePage(signedIn, '').includes('role="alert"'));
  });

  it('shows the code, the sender, the client and the account a pairing would join, escaped', () => {
    const html = confirmPairingPage(
      { ...signedIn, user: { username: 'ada<b>', isOperator: true } },
      pairing({ senderName: HOSTILE, client: HOSTILE }),
      0,
    );
    assert.ok(html.includes('<dd class="code" id="pair-code">ABCD-EFGH</dd>'));
    assert.ok(html.includes(`<dd id="pair-sender">${HOSTILE_SHOWN}</dd>`));
    assert.ok(html.includes(`<dt>Client</dt><dd>${HOSTILE_SHOWN}</dd>`));
    assert.ok(html.includes('Signed in as <strong>ada&lt;b&gt;</strong>'));
    assertShownAsText(html);
    assert.ok(!confirmPairingPage(signedIn, pairing({ client: null }), 0).includes('<dt>Client</dt>'));
  });

  it('offers approve and reject, each its own form naming the pairing and its decision', () => {
    const forms = postForms(confirmPairingPage(signedIn, pairing({ id: 'p"1' }), 0));
    assert.equal(forms.length, 2);
    const [approve, reject] = forms;
    for (const [form, decision, label, style] of [
      [approve, 'approve', 'Approve', 'primary'],
      [reject, 'reject', 'Reject', 'danger'],
    ] as const) {
      assert.ok(form?.startsWith('<form method="post" action="/pair">'));
      assert.ok(form?.includes(FIELD));
      assert.ok(form?.includes('<input type="hidden" name="pairing_id" value="p&quot;1">'));
      assert.ok(form?.includes(`<input type="hidden" name="decision" value="${decision}">`));
      assert.ok(form?.includes(`<button type="submit" class="${style}">${label}</button>`));
    }
  });

  it('says in whole minutes, rounded up and at least one, when the request expires', () => {
    const expiresIn = (now: number): string =>
      /expires in (\d+) min\./.exec(
        confirmPairingPage(signedIn, pairing({ expiresAt: 600_000 }), now),
      )?.[1] ?? '';
    assert.equal(expiresIn(0), '10');
    assert.equal(expiresIn(1), '10', 'a part of a minute left counts as a minute');
    assert.equal(expiresIn(60_000), '9');
    assert.equal(expiresIn(599_999), '1');
    assert.equal(expiresIn(600_000), '1', 'never "0 min"');
  });

  it('asks once more before revoking, with a form that confirms it', () => {
    const html = confirmRevokePage(signedIn, installation({ id: 'i"d', name: HOSTILE }));
    assert.ok(html.includes(`<h1>Revoke ${HOSTILE_SHOWN}?</h1>`));
    const [form] = postForms(html);
    assert.ok(form?.startsWith('<form method="post" action="/installations/i&quot;d/revoke">'));
    assert.ok(form?.includes('<input type="hidden" name="confirm" value="yes">'));
    assert.ok(form?.includes(`>Revoke ${HOSTILE_SHOWN}</button>`));
    assert.ok(html.includes('<a href="/installations">Keep it</a>'));
    assertEveryPostFormHasCsrf(html);
    assertShownAsText(html);
  });

  it('lists installations with their client, pairing time and a revoke button each', () => {
    const html = installationsPage(
      signedIn,
      [installation({ name: HOSTILE, client: HOSTILE }), installation({ id: 'inst-2', client: null })],
      'Revoked laptop.',
    );
    assert.ok(html.includes('<p class="notice ok" role="status">Revoked laptop.</p>'));
    assert.ok(html.includes(`<strong>${HOSTILE_SHOWN}</strong>`));
    assert.ok(html.includes(`${HOSTILE_SHOWN} · paired 2026-11-29 06:07 UTC · inst-1</span>`));
    assert.ok(html.includes('<span class="muted"> · paired 2026-11-29 06:07 UTC · inst-2</span>'));
    const forms = postForms(html);
    assert.deepEqual(
      forms.map((form) => /action="([^"]+)"/.exec(form)?.[1]),
      ['/installations/inst-1/revoke', '/installations/inst-2/revoke'],
    );
    assertEveryPostFormHasCsrf(html);
    assertShownAsText(html);
    const none = installationsPage(signedIn, []);
    assert.ok(none.includes('None yet.'));
    assert.ok(!none.includes('<ul class="plain">'));
    assert.ok(!none.includes('role="status"'));
  });

  it('renders the inbox as the place the inbox script fills', () => {
    const html = inboxPage(signedIn);
    assert.ok(html.includes('<main><div id="inbox"></div><div id="alerts"></div><noscript>'));
  });
});

describe('relay pages: People', () => {
  const view = (changes: Partial<PeopleView> = {}): PeopleView => ({
    sessions: [
      {
        id: 1,
        createdAt: Date.UTC(2026, 10, 28, 8, 0),
        lastUsedAt: Date.UTC(2026, 10, 29, 9, 30),
        current: true,
      },
    ],
    ...changes,
  });

  it('lets everyone change their password, with the length rule on the new one', () => {
    const html = peoplePage(signedIn, view());
    assert.ok(html.includes('<form method="post" action="/people/password">'));
    assert.ok(
      html.includes(
        `<input name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}">`,
      ),
    );
    assert.ok(html.includes('<input name="current_password" type="password"'));
    assertEveryPostFormHasCsrf(html);
  });

  it("shows this browser's session without a sign-out button, and others with one each", () => {
    const alone = peoplePage(signedIn, view());
    assert.ok(alone.includes('<strong>This browser</strong>'));
    assert.ok(alone.includes('signed in 2026-11-28 08:00 UTC · last used 2026-11-29 09:30 UTC'));
    assert.ok(
      !alone.includes('/revoke'),
      'no button signs out the browser you are using, nor "everywhere else"',
    );
    const many = peoplePage(
      signedIn,
      view({
        sessions: [
          { id: 1, createdAt: 0, lastUsedAt: 0, current: true },
          { id: 7, createdAt: 0, lastUsedAt: 0, current: false },
        ],
      }),
    );
    assert.ok(many.includes('Another browser'));
    const actions = postForms(many).map((form) => /action="([^"]+)"/.exec(form)?.[1]);
    assert.ok(actions.includes('/people/sessions/7/revoke'));
    assert.ok(!actions.includes('/people/sessions/1/revoke'));
    assert.ok(actions.includes('/people/sessions/revoke-others'));
    assertEveryPostFormHasCsrf(many);
  });

  it('shows people and invitations to the operator only', () => {
    const plain = peoplePage({ ...signedIn, user: { username: 'bo', isOperator: false } }, view());
    assert.ok(!plain.includes('id="people"'));
    assert.ok(!plain.includes('/people/invite'));
    const operator = peoplePage(
      signedIn,
      view({
        operator: {
          people: [
            { id: 'u-1', username: 'ada', isOperator: true, createdAt: Date.UTC(2026, 10, 1) },
            { id: 'u/2', username: HOSTILE, isOperator: false, createdAt: Date.UTC(2026, 10, 2) },
          ],
          invites: [
            { id: 3, createdAt: Date.UTC(2026, 10, 29, 1, 0), expiresAt: Date.UTC(2026, 11, 2, 1, 0) },
          ],
          inviteUrl: `https://relay.example/join#${HOSTILE}`,
        },
        message: { kind: 'error', text: HOSTILE },
      }),
    );
    assert.ok(operator.includes(`role="alert">${HOSTILE_SHOWN}</p>`));
    assert.ok(operator.includes('<strong>ada</strong> (operator)'));
    assert.ok(operator.includes('since 2026-11-01'));
    assert.ok(operator.includes(`<strong>${HOSTILE_SHOWN}</strong>\n`));
    const actions = postForms(operator).map((form) => /action="([^"]+)"/.exec(form)?.[1]);
    assert.ok(actions.includes('/people/u%2F2/remove'), 'the person id is one path segment');
    assert.ok(!actions.includes('/people/u-1/remove'), 'the operator cannot be removed');
    assert.ok(actions.includes('/people/invites/3/withdraw'));
    assert.ok(actions.includes('/people/invite'));
    assert.ok(operator.includes('made 2026-11-29 01:00 UTC · works until 2026-12-02 01:00 UTC'));
    assert.ok(operator.includes(`<code class="secret">https://relay.example/join#${HOSTILE_SHOWN}</code>`));
    assert.ok(operator.includes('It works once, for 72 hours, and is not shown again.'));
    assertEveryPostFormHasCsrf(operator);
    assertShownAsText(operator);
  });

  it('shows a fresh invitation link only when one was just made, and the list only when there are invitations', () => {
    const html = peoplePage(signedIn, view({ operator: { people: [], invites: [] } }));
    assert.ok(!html.includes('class="secret"'));
    assert.ok(!html.includes('Unused invitations'));
    assert.ok(html.includes('<section id="invitations">'));
  });

  it('asks once more before removing a person, naming them', () => {
    const html = confirmRemovalPage(signedIn, { id: 'u/2', username: HOSTILE });
    assert.ok(html.includes(`<h1>Remove ${HOSTILE_SHOWN}?</h1>`));
    const [form] = postForms(html);
    assert.ok(form?.startsWith('<form method="post" action="/people/u%2F2/remove">'));
    assert.ok(form?.includes('<input type="hidden" name="confirm" value="yes">'));
    assert.ok(html.includes('<a href="/people">Keep them</a>'));
    assertEveryPostFormHasCsrf(html);
    assertShownAsText(html);
  });
});

describe('relay pages: what a person reads on each', () => {
  /** The page's own content as a screen reader reads it: text only, spaces collapsed. */
  const textOf = (html: string): string =>
    (/<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const buttons = (html: string): string[] =>
    [...html.matchAll(/<button type="submit" class="(\w+)">([^<]*)<\/button>/g)].map(
      (match) => `${match[2]} (${match[1]})`,
    );
  const SESSION_RULES =
    'People Change your password Current password New password (10-200 characters) New password again Change password Your other sessions are signed out when it changes. Where you are signed in A session ends after 12 hours unused, and 7 days after signing in at the latest.';
  const session = { createdAt: 0, lastUsedAt: 0 };
  const SESSION_LINE = 'signed in 1970-01-01 00:00 UTC · last used 1970-01-01 00:00 UTC';

  it('reads the account pages as written, with nothing added', () => {
    assert.equal(textOf(signInPage(signedOut, '/inbox', '')), 'Sign in User name Password Sign in');
    assert.equal(
      textOf(newAccountPage(signedOut, 'setup', 't', '')),
      `Set up the operator account User name (letters, digits, . _ -) Password (${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters) Password again Create account`,
    );
    assert.equal(textOf(messagePage(signedOut, 'Gone', 'It is gone.')), 'Gone It is gone.');
  });

  it('reads the pairing and installation pages as written, with nothing added', () => {
    assert.equal(
      textOf(enterCodePage(signedIn, '')),
      "Pair a sender Enter the code that notify relay pair printed on the sender's terminal. Code Continue",
    );
    assert.match(enterCodePage(signedIn, ''), /<title>Pair a sender · Home relay<\/title>/);
    const confirm = confirmPairingPage(signedIn, pairing({ client: null }), 0);
    assert.equal(
      textOf(confirm),
      'Approve this sender? Code ABCD-EFGH Sender laptop Signed in as ada : approving pairs the sender with this account. If that is not you, sign out instead. Approve only if this code is the one on your own terminal. The sender will deliver notifications to your inbox and receive your answers. The request expires in 10 min. Approve Reject',
    );
    assert.match(confirm, /<title>Approve this sender\? · Home relay<\/title>/);
    assert.equal(
      textOf(installationsPage(signedIn, [installation({ client: null })])),
      'Installations Senders paired with your account. Revoking one refuses its credential at once and deletes what it delivered. laptop · paired 2026-11-29 06:07 UTC · inst-1 Revoke',
    );
    assert.equal(
      textOf(installationsPage(signedIn, [])),
      'Installations Senders paired with your account. Revoking one refuses its credential at once and deletes what it delivered. None yet. Run notify relay pair --url … on a sender.',
    );
    const revoke = confirmRevokePage(signedIn, installation());
    assert.equal(
      textOf(revoke),
      'Revoke laptop? Its credential is refused from now on, its open connections end, and the notifications it delivered are deleted. To use it again, pair it again with notify relay pair . Revoke laptop Keep it',
    );
    assert.match(revoke, /<title>Revoke this sender\? · Home relay<\/title>/);
    assert.deepEqual(buttons(revoke), ['Sign out ada (link)', 'Revoke laptop (danger)']);
    assert.equal(textOf(inboxPage(signedIn)), 'The inbox needs JavaScript.');
    assert.match(inboxPage(signedIn), /<title>Inbox · Home relay<\/title>/);
  });

  it('shows the page of an unnamed reader without failing', () => {
    assert.match(textOf(confirmPairingPage(signedOut, pairing(), 0)), /Signed in as : approving/);
  });

  it('reads the People page as written: only your session, then everything the operator manages', () => {
    const alone = peoplePage(signedIn, { sessions: [{ id: 1, ...session, current: true }] });
    assert.equal(textOf(alone), `${SESSION_RULES} This browser ${SESSION_LINE}`);
    assert.match(alone, /<title>People · Home relay<\/title>/);
    assert.deepEqual(buttons(alone), ['Sign out ada (link)']);

    const operator = peoplePage(signedIn, {
      sessions: [
        { id: 1, ...session, current: true },
        { id: 2, ...session, current: false },
      ],
      operator: {
        people: [
          { id: 'u1', username: 'ada', isOperator: true, createdAt: 0 },
          { id: 'u2', username: 'bo', isOperator: false, createdAt: 0 },
        ],
        invites: [{ id: 3, createdAt: 0, expiresAt: 0 }],
      },
    });
    assert.equal(
      textOf(operator),
      `${SESSION_RULES} This browser ${SESSION_LINE} Another browser ${SESSION_LINE} Sign out Sign out everywhere else People ada (operator) since 1970-01-01 bo since 1970-01-01 Remove Invitations Unused invitations; withdrawing one makes its link stop working. Invitation made 1970-01-01 00:00 UTC · works until 1970-01-01 00:00 UTC Withdraw Invite someone`,
    );
    assert.deepEqual(buttons(operator), [
      'Sign out ada (link)',
      'Sign out (danger)',
      'Sign out everywhere else (danger)',
      'Remove (danger)',
      'Withdraw (danger)',
      'Invite someone (primary)',
    ]);
    const removal = confirmRemovalPage(signedIn, { id: 'u2', username: 'bo' });
    assert.equal(
      textOf(removal),
      "Remove bo? Their account is deleted, their sessions end, and their installations are revoked: those laptops' credentials are refused from now on, and the notifications they delivered are deleted. This cannot be undone; to let them back, invite them again. Remove bo Keep them",
    );
    assert.match(removal, /<title>Remove this person\? · Home relay<\/title>/);
  });
});
