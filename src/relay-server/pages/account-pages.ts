import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords.js';
import { csrfField, escape, notice, page, type PageFrame } from './html.js';

function passwordFields(): string {
  return `<label>Password (${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters)
<input name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"></label>
<label>Password again<input name="password_again" type="password" autocomplete="new-password" required></label>`;
}

function usernameField(value: string): string {
  return `<label>User name (letters, digits, . _ -)<input name="username" autocomplete="username" required maxlength="40" value="${escape(value)}"></label>`;
}

export function signInPage(frame: PageFrame, next: string, username: string, error?: string): string {
  return page(
    frame,
    'Sign in',
    `<h1>Sign in</h1>${error ? notice('error', error) : ''}
<form method="post" action="/sign-in">${csrfField(frame.csrf)}<input type="hidden" name="next" value="${escape(next)}">
<label>User name<input name="username" autocomplete="username" required maxlength="40" value="${escape(username)}"></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}"></label>
<button type="submit">Sign in</button></form>`,
  );
}

/** The operator's first start, and an invited person's own account. */
export function newAccountPage(
  frame: PageFrame,
  kind: 'setup' | 'join',
  token: string,
  username: string,
  error?: string,
): string {
  const heading = kind === 'setup' ? 'Set up the operator account' : 'Create your account';
  return page(
    frame,
    heading,
    `<h1>${heading}</h1>${error ? notice('error', error) : ''}
<form method="post" action="/${kind}">${csrfField(frame.csrf)}<input type="hidden" name="token" value="${escape(token)}">
${usernameField(username)}${passwordFields()}<button type="submit">Create account</button></form>`,
  );
}

export function messagePage(
  frame: PageFrame,
  title: string,
  text: string,
  link?: { href: string; label: string },
): string {
  return page(
    frame,
    title,
    `<h1>${escape(title)}</h1><p>${escape(text)}</p>${link ? `<p><a href="${escape(link.href)}">${escape(link.label)}</a></p>` : ''}`,
  );
}
