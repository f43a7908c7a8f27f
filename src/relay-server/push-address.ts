/**
 * Where the relay posts a push: only to push services on the internet. An endpoint's address is checked
 * when the connection is made, not only when the device was registered, since a name can come to point
 * elsewhere (DNS rebinding) and a device registered before a rule keeps its endpoint.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { classifyAddress } from '../domain/relay/address-class.js';

/** Why the relay does not connect to this IP address; undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const kind = classifyAddress(address);
  if (kind === 'private') return `the push service's address ${address} is on a private network`;
  if (kind === 'loopback' && !allowLoopback)
    return `the push service's address ${address} is on this machine`;
  return undefined;
}

/** A connection the relay did not make, saying why: the push is given up, not tried again. */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * net.connect's `lookup`: the system resolver's addresses, all of them checked; the connection is made
 * to a checked one only. An IP literal never comes here (net.connect does not look it up): check it
 * with refusedAddress before.
 */
export function publicOnlyLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    // The family and hints net.connect asks for are kept; every address is fetched, to check them all.
    // net.connect reads no address from a failed lookup.
    const fail = (error: Error): void => callback(error, '', 4);
    lookup(hostname, { ...options, all: true, verbatim: true }, (error, found) => {
      if (error) return fail(error);
      const refusal = found.map(({ address }) => refusedAddress(address, allowLoopback)).find(Boolean);
      if (refusal !== undefined) return fail(new RefusedAddressError(refusal));
      if (options.all) return callback(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}
