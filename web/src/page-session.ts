import type { SessionKeeper } from './api.js';

/**
 * Where the broker's own page keeps its session (issue 29): localStorage, which belongs to the page's
 * origin, its scheme, host and port. Never a cookie, which browsers send to every port of 127.0.0.1.
 * Every tab of the page shares it, and it survives a reload.
 */
const KEY = 'notify.session';
/** 32 random bytes as base64url, as the broker makes them. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** The sign-in link's redirect: `/#s=<secret>`. */
const FRAGMENT = '#s=';

/**
 * Moves the secret `/login` put in the address's fragment into storage, and takes it out of the
 * address bar and the history entry, before anything renders or could pass the address on.
 */
export function takeSessionFromAddress(): void {
  if (!location.hash.startsWith(FRAGMENT)) return;
  const secret = location.hash.slice(FRAGMENT.length);
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  if (SECRET_SHAPE.test(secret)) localStorage.setItem(KEY, secret);
}

export const keptSession: SessionKeeper = {
  secret: () => localStorage.getItem(KEY) ?? undefined,
  forget: (secret) => {
    // Another tab may have signed in again meanwhile: only the session that ended is dropped.
    if (localStorage.getItem(KEY) === secret) localStorage.removeItem(KEY);
  },
};
