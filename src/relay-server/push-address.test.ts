/**
 * The addresses the relay's push sender connects to (push-address.ts): public ones, this machine only
 * with --allow-loopback-push, a private network never, checked on every address a name resolves to.
 */
import assert from 'node:assert/strict';
import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { describe, it } from 'node:test';
import { publicOnlyLookup, refusedAddress, RefusedAddressError } from './push-address.js';

const PRIVATE = (address: string) => `the push service's address ${address} is on a private network`;
const THIS_MACHINE = (address: string) => `the push service's address ${address} is on this machine`;

describe('push addresses', () => {
  it('refuses a private network whatever is allowed, this machine unless allowed, and takes public ones', () => {
    const table: [string, boolean, string | undefined][] = [
      ['10.1.2.3', false, PRIVATE('10.1.2.3')],
      ['10.1.2.3', true, PRIVATE('10.1.2.3')],
      ['169.254.169.254', true, PRIVATE('169.254.169.254')],
      ['fd00::1', true, PRIVATE('fd00::1')],
      ['[fe80::1]', false, PRIVATE('[fe80::1]')],
      ['127.0.0.1', false, THIS_MACHINE('127.0.0.1')],
      ['::1', false, THIS_MACHINE('::1')],
      ['127.0.0.1', true, undefined],
      ['8.8.8.8', false, undefined],
      ['2606:4700:4700::1111', false, undefined],
      // A name is not an address: its addresses are checked when it is looked up.
      ['fcm.googleapis.com', false, undefined],
    ];
    for (const [address, allowLoopback, refusal] of table) {
      assert.equal(refusedAddress(address, allowLoopback), refusal, `${address}, loopback ${allowLoopback}`);
    }
  });

  it("looks a name up and refuses it when one of its addresses is refused, else answers with the resolver's", async () => {
    const resolve = (allowLoopback: boolean, all: boolean) =>
      new Promise<{ error: Error | null; address: string | LookupAddress[] }>((done) =>
        publicOnlyLookup(allowLoopback)('localhost', { all }, (error, address) => done({ error, address })),
      );
    const refused = await resolve(false, true);
    assert.ok(refused.error instanceof RefusedAddressError);
    assert.match(refused.error.message, /^the push service's address (127\.0\.0\.1|::1) is on this machine$/);

    // A push service's name that no longer resolves: the resolver's own failure, for the push's log.
    const unknown = await new Promise<Error | null>((done) =>
      publicOnlyLookup(false)('push.no-such-host.invalid', { all: true }, (error) => done(error)),
    );
    assert.ok(unknown && !(unknown instanceof RefusedAddressError), String(unknown));
    assert.match((unknown as NodeJS.ErrnoException).code ?? '', /^(ENOTFOUND|EAI_AGAIN)$/);

    const all = await resolve(true, true);
    assert.equal(all.error, null);
    assert.ok(Array.isArray(all.address) && all.address.length > 0);
    const one = await resolve(true, false);
    assert.equal(one.error, null);
    assert.equal(
      one.address,
      (all.address as LookupAddress[])[0]!.address,
      'the first address when one is asked',
    );
  });

  it('refuses a name that answers a public address first and a private one after: every address counts', async () => {
    // A name the device's owner controls, made to answer both (the connection may take either).
    const answers: Record<string, string[]> = {
      'push.example.com': ['93.184.216.34', '10.0.0.5'],
      'push.example.net': ['2606:4700:4700::1111', '::1'],
    };
    const real = dns.lookup;
    const stand = (host: string, options: object, callback: (...args: unknown[]) => void) => {
      const listed = answers[host];
      if (listed === undefined) return real(host, options, callback as never);
      const entries = listed.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      process.nextTick(() => callback(null, entries));
    };
    (dns as { lookup: unknown }).lookup = stand;
    syncBuiltinESMExports();
    try {
      for (const [host, refusal] of [
        ['push.example.com', PRIVATE('10.0.0.5')],
        ['push.example.net', THIS_MACHINE('::1')],
      ] as const) {
        const error = await new Promise<Error | null>((done) =>
          publicOnlyLookup(false)(host, { all: true }, (failure) => done(failure)),
        );
        assert.ok(error instanceof RefusedAddressError, `${host}: ${String(error)}`);
        assert.equal(error.message, refusal);
      }
    } finally {
      (dns as { lookup: unknown }).lookup = real;
      syncBuiltinESMExports();
    }
  });
});
