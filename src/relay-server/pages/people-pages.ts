/** The People page: your account (password, sessions) for everyone; people and invitations for the operator. */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords.js';
import type { SessionView } from '../people.js';
import type { InviteRow } from '../people-store.js';
import { csrfField, escape, notice, page, type PageFrame } from './html.js';

export interface PeopleView {
  sessions: SessionView[];
  /** The operator's part; undefined for everyone else. */
  operator?: {
    people: { id: string; username: string; isOperator: boolean; createdAt: number }[];
    invites: InviteRow[];
    /** A link just made, shown once. */
    inviteUrl?: string;
  };
  message?: { kind: 'ok' | 'error'; text: string };
}

const time = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function postButton(frame: PageFrame, action: string, label: string, style = 'danger'): string {
  return `<form method="post" action="${escape(action)}">${csrfField(frame.csrf)}<button type="submit" class="${style}">${escape(label)}</button></form>`;
}

function passwordSection(frame: PageFrame): string {
  return `<section id="password"><h2>Change your password</h2>
<form method="post" action="/people/password">${csrfField(frame.csrf)}
<label>Current password<input name="current_password" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}"></label>
<label>New password (${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters)<input name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"></label>
<label>New password again<input name="password_again" type="password" autocomplete="new-password" required></label>
<button type="submit">Change password</button></form>
<p class="muted">Your other sessions are signed out when it changes.</p></section>`;
}

function sessionsSection(frame: PageFrame, sessions: SessionView[]): string {
  const rows = sessions
    .map(
      (
        session,
      ) => `<li class="row session"><div>${session.current ? '<strong>This browser</strong>' : 'Another browser'}
<span class="muted">signed in ${escape(time(session.createdAt))} · last used ${escape(time(session.lastUsedAt))}</span></div>
${session.current ? '' : postButton(frame, `/people/sessions/${session.id}/revoke`, 'Sign out')}</li>`,
    )
    .join('');
  const others = sessions.some((session) => !session.current)
    ? postButton(frame, '/people/sessions/revoke-others', 'Sign out everywhere else')
    : '';
  return `<section id="sessions"><h2>Where you are signed in</h2>
<p class="muted">A session ends after 12 hours unused, and 7 days after signing in at the latest.</p>
<ul class="plain">${rows}</ul>${others}</section>`;
}

function operatorSections(frame: PageFrame, operator: NonNullable<PeopleView['operator']>): string {
  const people = operator.people
    .map(
      (
        person,
      ) => `<li class="row person"><div><strong>${escape(person.username)}</strong>${person.isOperator ? ' (operator)' : ''}
<span class="muted">since ${escape(new Date(person.createdAt).toISOString().slice(0, 10))}</span></div>
${person.isOperator ? '' : postButton(frame, `/people/${encodeURIComponent(person.id)}/remove`, 'Remove')}</li>`,
    )
    .join('');
  const invites = operator.invites
    .map(
      (
        invite,
      ) => `<li class="row invite"><div>Invitation <span class="muted">made ${escape(time(invite.createdAt))} · works until ${escape(time(invite.expiresAt))}</span></div>
${postButton(frame, `/people/invites/${invite.id}/withdraw`, 'Withdraw')}</li>`,
    )
    .join('');
  const fresh = operator.inviteUrl
    ? `${notice('ok', 'Send this link to the person you invite. It works once, for 72 hours, and is not shown again.')}<p><code class="secret">${escape(operator.inviteUrl)}</code></p>`
    : '';
  return `<section id="people"><h2>People</h2><ul class="plain">${people}</ul></section>
<section id="invitations"><h2>Invitations</h2>${fresh}
${invites ? `<p class="muted">Unused invitations; withdrawing one makes its link stop working.</p><ul class="plain">${invites}</ul>` : ''}
${postButton(frame, '/people/invite', 'Invite someone', 'primary')}</section>`;
}

export function peoplePage(frame: PageFrame, view: PeopleView): string {
  return page(
    frame,
    'People',
    `<h1>People</h1>${view.message ? notice(view.message.kind, view.message.text) : ''}
${passwordSection(frame)}${sessionsSection(frame, view.sessions)}${view.operator ? operatorSections(frame, view.operator) : ''}`,
  );
}

/** Removing a person cannot be undone: one more press, on a page that says what goes with them. */
export function confirmRemovalPage(frame: PageFrame, person: { id: string; username: string }): string {
  return page(
    frame,
    'Remove this person?',
    `<h1>Remove ${escape(person.username)}?</h1>
<p>Their account is deleted, their sessions end, and their installations are revoked: those laptops' credentials are refused from now on, and the notifications they delivered are deleted. This cannot be undone; to let them back, invite them again.</p>
<div class="buttons"><form method="post" action="/people/${escape(encodeURIComponent(person.id))}/remove">${csrfField(frame.csrf)}<input type="hidden" name="confirm" value="yes"><button type="submit" class="danger">Remove ${escape(person.username)}</button></form>
<a href="/people">Keep them</a></div>`,
  );
}
