import { classifyAddress, type AddressClass } from './address-class.js';

/**
 * The URL rules of `notify relay pair` (spec "Client command"): absolute; HTTPS, or HTTP on this
 * machine only; a destination on this machine or a private network only with --allow-private (HTTP on
 * localhost included); every address the host resolves to is checked, so a public name that points
 * inward is caught as well.
 */

export const ALLOW_PRIVATE_HINT =
  'pass --allow-private to pair with a relay on this machine or on a private network.';

export interface RelayUrl {
  /** The normalized base URL a profile stores: origin and path, without a trailing slash. */
  base: string;
  origin: string;
  /** The host name or address to resolve, without IPv6 brackets. */
  host: string;
  secure: boolean;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The first step, before any network: the URL's shape. */
export function parseRelayUrl(text: string, allowPrivate: boolean): Checked<RelayUrl> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return refuse(`--url must be an absolute URL such as https://relay.example.com; got "${text}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`--url must be an https URL (http only for localhost); got a ${url.protocol} URL.`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse(
      '--url must not carry a user name or password; pairing gives this machine its own credential.',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    return refuse('--url must be the relay\'s base URL, without "?" query or "#" fragment.');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const secure = url.protocol === 'https:';
  if (!secure) {
    if (!isLocalhost(host)) {
      return refuse(`--url must use https: http is allowed only for localhost, and ${url.hostname} is not.`);
    }
    if (!allowPrivate) return refuse(`--url ${url.origin} is on this machine; ${ALLOW_PRIVATE_HINT}`);
  }
  const literal = classifyAddress(host);
  if (literal !== undefined && literal !== 'public' && !allowPrivate) {
    return refuse(`--url ${url.origin} points at ${describe(literal)}; ${ALLOW_PRIVATE_HINT}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, value: { base: `${url.origin}${path}`, origin: url.origin, host, secure } };
}

/** The second step: every address the host resolved to. */
export function checkAddresses(
  url: RelayUrl,
  addresses: readonly string[],
  allowPrivate: boolean,
): Checked<void> {
  if (addresses.length === 0) return refuse(`${url.host} did not resolve to any address.`);
  for (const address of addresses) {
    const kind = classifyAddress(address) ?? 'private';
    if (!url.secure && kind !== 'loopback') {
      return refuse(
        `--url must use https: http is allowed only for localhost, and ${url.host} resolves to ${address}, which is not this machine.`,
      );
    }
    if (kind !== 'public' && !allowPrivate) {
      return refuse(`${url.host} resolves to ${address}, ${describe(kind)}; ${ALLOW_PRIVATE_HINT}`);
    }
  }
  return { ok: true, value: undefined };
}

/** Whether `candidate` (a URL the relay sent) is on the relay's own origin. */
export function sameOrigin(candidate: string, origin: string): boolean {
  try {
    return new URL(candidate).origin === origin;
  } catch {
    return false;
  }
}

/** The profile that a URL matches: the same normalized base. */
export function normalizeRelayBase(text: string): string | undefined {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

function isLocalhost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || classifyAddress(host) === 'loopback';
}

function describe(kind: AddressClass): string {
  return kind === 'loopback' ? 'this machine (a loopback address)' : 'a private or reserved address';
}

function refuse<T>(problem: string): Checked<T> {
  return { ok: false, problem };
}
