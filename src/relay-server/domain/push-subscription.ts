/** A browser's PushSubscription.toJSON() as the inbox registers it (docs/relay-protocol.md "Phone push"). */
import { createECDH } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Checked } from './delivery.js';
import { cleanName } from './pairing.js';
import { classifyAddress } from '../../domain/relay/address-class.js';

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  name: string;
}

export const MAX_SUBSCRIPTIONS_PER_PERSON = 20;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decoded(value: unknown, length: number): Buffer | undefined {
  if (typeof value !== 'string' || !BASE64URL.test(value) || value.length > 200) return undefined;
  const buffer = Buffer.from(value, 'base64url');
  return buffer.length === length ? buffer : undefined;
}

/** A point on P-256: ECDH with it works (an off-curve key would make every push fail). */
function onCurve(point: Buffer): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

/** Addresses that reach this machine: loopback, the unspecified address, and IPv4 ones written as IPv6. */
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('0.0.0.0', 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

export function isLoopbackHost(hostname: string): boolean {
  // A URL's hostname keeps a final dot ("localhost.") and IPv6 brackets; the resolver ignores both.
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && THIS_MACHINE.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The subscription, or the sentence saying what is wrong. Endpoints are https (the push services are);
 * with allowLoopback also http or https on this machine (tests and local trials).
 */
export function checkSubscription(body: unknown, allowLoopback: boolean): Checked<NewSubscription> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: 'The body must be a JSON object.' };
  const fields = body as Record<string, unknown>;
  const endpoint = fields['endpoint'];
  let url: URL | undefined;
  try {
    url = typeof endpoint === 'string' && endpoint.length <= 2000 ? new URL(endpoint) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || url.username !== '' || url.password !== '')
    return { ok: false, message: 'endpoint must be an https URL of at most 2000 characters.' };
  const loopback = isLoopbackHost(url.hostname);
  if (loopback && !allowLoopback)
    return {
      ok: false,
      message: 'endpoint is on this machine; the relay takes those only with --allow-loopback-push.',
    };
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:'))
    return { ok: false, message: 'endpoint must be an https URL of at most 2000 characters.' };
  // The relay would post to it: an address on a private network (a router, a cloud's metadata service)
  // must not be reachable by registering a device. Names are checked when the push is sent.
  if (!loopback && classifyAddress(url.hostname) === 'private')
    return {
      ok: false,
      message: 'endpoint is on a private network; the relay posts only to push services on the internet.',
    };
  const keys = fields['keys'];
  const { p256dh, auth } =
    typeof keys === 'object' && keys !== null ? (keys as Record<string, unknown>) : ({} as never);
  const point = decoded(p256dh, 65);
  if (!point || point[0] !== 4 || !onCurve(point))
    return { ok: false, message: 'keys.p256dh must be an uncompressed P-256 point in base64url.' };
  if (!decoded(auth, 16)) return { ok: false, message: 'keys.auth must be 16 bytes in base64url.' };
  const name = cleanName(fields['name'] ?? 'This device', 100);
  if (name === undefined)
    return { ok: false, message: 'name must be 1-100 characters without control characters.' };
  return {
    ok: true,
    value: {
      endpoint: endpoint as string,
      p256dh: p256dh as string,
      auth: auth as string,
      name,
    },
  };
}
