import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Loaded with `--import` into a `notify` under test: a resolver that changes its answer, as a DNS
 * rebinding attack does. The name NOTIFY_TEST_REBIND_HOST resolves to NOTIFY_TEST_REBIND_FIRST on the
 * first lookup (callback or promise API) and to NOTIFY_TEST_REBIND_LATER on every later one; other
 * names go to the system resolver.
 */

type Callback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

const host = process.env['NOTIFY_TEST_REBIND_HOST']!.toLowerCase();
let lookups = 0;

function answer(): LookupAddress[] {
  lookups++;
  const address = process.env[lookups === 1 ? 'NOTIFY_TEST_REBIND_FIRST' : 'NOTIFY_TEST_REBIND_LATER']!;
  return [{ address, family: address.includes(':') ? 6 : 4 }];
}

const system = dns.lookup.bind(dns) as (name: string, options: object, callback: Callback) => void;
const systemPromise = dns.promises.lookup.bind(dns.promises) as (name: string, options: object) => unknown;

function lookup(name: string, options: number | object | Callback, callback?: Callback): void {
  const done = (typeof options === 'function' ? options : callback) as Callback;
  const given: { all?: boolean } =
    typeof options === 'object' ? options : typeof options === 'number' ? { family: options } : {};
  if (name.toLowerCase() !== host) return system(name, given, done);
  const entries = answer();
  process.nextTick(() =>
    given.all ? done(null, entries) : done(null, entries[0]!.address, entries[0]!.family),
  );
}

async function lookupPromise(name: string, options: { all?: boolean } = {}): Promise<unknown> {
  if (name.toLowerCase() !== host) return systemPromise(name, options);
  const entries = answer();
  return options.all ? entries : entries[0];
}

(dns as unknown as { lookup: typeof lookup }).lookup = lookup;
(dns.promises as unknown as { lookup: typeof lookupPromise }).lookup = lookupPromise;
syncBuiltinESMExports();
