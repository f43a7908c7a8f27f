import dns, { type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Loaded with `--import` into a broker under test: stands in for DNS, the remote service a test cannot
 * change. `dns.lookup` answers the names listed in the JSON file NOTIFY_TEST_DNS_FILE
 * (`{ "relay.example.com": ["127.0.0.1"] }`), read again at every lookup so a test can change an
 * answer while the broker runs; every other name goes to the system resolver as usual.
 */

type Callback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

const system = dns.lookup.bind(dns) as (host: string, options: object, callback: Callback) => void;

function listed(host: string): string[] | undefined {
  try {
    const table = JSON.parse(readFileSync(process.env['NOTIFY_TEST_DNS_FILE']!, 'utf8')) as Record<
      string,
      string[]
    >;
    return table[host.toLowerCase()];
  } catch {
    return undefined;
  }
}

function lookup(host: string, options: number | object | Callback, callback?: Callback): void {
  const done = (typeof options === 'function' ? options : callback) as Callback;
  const given: { all?: boolean } =
    typeof options === 'object' ? options : typeof options === 'number' ? { family: options } : {};
  const addresses = listed(host);
  if (addresses === undefined) return system(host, given, done);
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  process.nextTick(() =>
    given.all ? done(null, entries) : done(null, entries[0]!.address, entries[0]!.family),
  );
}

(dns as unknown as { lookup: typeof lookup }).lookup = lookup;
syncBuiltinESMExports();
