import dns, { type LookupAddress } from 'node:dns';
import type { Dispatcher } from 'undici';
import { checkAddresses, parseRelayUrl, type RelayUrl } from '../../../domain/relay/relay-url.js';
import { ADDRESS_NOT_ALLOWED } from '../../classify.js';
import { PROXY_VARIABLES } from '../../http-delivery.js';

/**
 * Where notifyd may connect for a relay: the rules `notify relay pair` applied (docs/relay.md), on
 * every connection, not only at pairing. HTTPS, or HTTP on this machine; this machine or a private
 * network only for a profile paired with --allow-private (its `allowPrivate` setting). The host is
 * resolved in the connection's own lookup, every address checked, and the connection made to exactly
 * those addresses: a name that later points inward (DNS rebinding) never receives the credential.
 * Through an HTTP(S) proxy the proxy resolves the name; the URL's own rules still apply.
 */

/** Carries ADDRESS_NOT_ALLOWED up to the delivery's classification (`address_not_allowed`, rejected). */
export class AddressNotAllowedError extends Error {
  override name = 'AddressNotAllowedError';
  readonly code = ADDRESS_NOT_ALLOWED;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls.connect that answers only with addresses of the relay's host that pass the rules. */
export function checkedLookup(url: RelayUrl, allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    if (hostname.toLowerCase() !== url.host.toLowerCase()) {
      callback(new AddressNotAllowedError(`${hostname} is not the relay's host`), '', 4);
      return;
    }
    dns.lookup(hostname, { all: true, verbatim: true }, (error, found) => {
      if (error) return callback(error, '', 4);
      const checked = checkAddresses(
        url,
        found.map((entry) => entry.address),
        allowPrivate,
      );
      if (!checked.ok) return callback(new AddressNotAllowedError(checked.problem), '', 4);
      const family = options.family;
      const wanted =
        family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : undefined;
      const entries = found.filter((entry) => wanted === undefined || entry.family === wanted);
      if (entries.length === 0)
        return callback(new AddressNotAllowedError('no address of that family'), '', 4);
      if (options.all) return callback(null, entries);
      callback(null, entries[0]!.address, entries[0]!.family);
    });
  };
}

export type RelayTarget = { ok: true; dispatcher: Dispatcher } | { ok: false };

const agents = new Map<string, Dispatcher>();

/**
 * The dispatcher every request to this relay goes through, or `ok: false` when its URL breaks the
 * rules. One per relay, rules and proxy environment, so connections are reused: each new connection
 * is looked up and checked again.
 */
export async function relayTarget(urlText: string, allowPrivate: boolean): Promise<RelayTarget> {
  const parsed = parseRelayUrl(urlText, allowPrivate);
  if (!parsed.ok) return { ok: false };
  const { EnvHttpProxyAgent } = await import('undici');
  const proxies = PROXY_VARIABLES.map((name) => process.env[name] ?? '').join('\n');
  const key = `${parsed.value.origin}\n${allowPrivate}\n${proxies}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    for (const [old, stale] of agents) {
      if (old.startsWith(`${parsed.value.origin}\n`)) {
        agents.delete(old);
        void stale.close().catch(() => undefined);
      }
    }
    agent = new EnvHttpProxyAgent({ connect: { lookup: checkedLookup(parsed.value, allowPrivate) } });
    agents.set(key, agent);
  }
  return { ok: true, dispatcher: agent };
}
