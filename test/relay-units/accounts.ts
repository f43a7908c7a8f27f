/** People on an in-process relay: a fresh sign-in, an invitation link, an invited person's account. */
import assert from 'node:assert/strict';
import { OPERATOR, WebSession } from '../support/relay-web.js';
import type { InProcessRelay } from './in-process-relay.js';

export interface Account {
  username: string;
  password: string;
}

/** A browser with a session of its own, on the inbox page (its CSRF token read). */
export async function signedIn(
  relay: InProcessRelay,
  account: Account = OPERATOR,
  next?: string,
): Promise<WebSession> {
  const browser = new WebSession(relay);
  await browser.get('/sign-in');
  const done = await browser.post('/sign-in', {
    username: account.username,
    password: account.password,
    ...(next !== undefined && { next }),
  });
  assert.equal(done.status, 303, done.text);
  await browser.get('/inbox');
  return browser;
}

/** An invitation link's token, made by the operator on the people page. */
export async function invite(operator: WebSession): Promise<string> {
  const page = await operator.post('/people/invite', {});
  assert.equal(page.status, 200, page.text);
  const link = /<code class="secret">([^<]+)<\/code>/.exec(page.text)?.[1];
  assert.ok(link, page.text);
  return new URL(link.replaceAll('&amp;', '&')).searchParams.get('token')!;
}

/** A person invited by the operator, signed in with the account they just created. */
export async function join(
  relay: InProcessRelay,
  operator: WebSession,
  account: Account,
): Promise<WebSession> {
  const token = await invite(operator);
  const browser = new WebSession(relay);
  await browser.get(`/join?token=${token}`);
  const done = await browser.post('/join', {
    token,
    username: account.username,
    password: account.password,
    password_again: account.password,
  });
  assert.equal(done.status, 303, done.text);
  await browser.get('/inbox');
  return browser;
}
