import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAddress } from './address-class.js';
import { checkAddresses, normalizeRelayBase, parseRelayUrl, sameOrigin } from './relay-url.js';

const HINT = 'pass --allow-private to pair with a relay on this machine or on a private network.';

/** [url, --allow-private, the problem or the normalized base] */
const SHAPES: [string, boolean, { problem: string } | { base: string }][] = [
  ['https://relay.example.com', false, { base: 'https://relay.example.com' }],
  ['https://Relay.Example.COM:443/', false, { base: 'https://relay.example.com' }],
  ['https://relay.example.com/notify/', false, { base: 'https://relay.example.com/notify' }],
  ['https://relay.example.com:8443', false, { base: 'https://relay.example.com:8443' }],
  [
    'relay.example.com',
    false,
    { problem: '--url must be an absolute URL such as https://relay.example.com; got "relay.example.com".' },
  ],
  [
    '/v1/relay',
    true,
    { problem: '--url must be an absolute URL such as https://relay.example.com; got "/v1/relay".' },
  ],
  [
    'ftp://relay.example.com',
    true,
    { problem: '--url must be an https URL (http only for localhost); got a ftp: URL.' },
  ],
  [
    'http://relay.example.com',
    true,
    { problem: '--url must use https: http is allowed only for localhost, and relay.example.com is not.' },
  ],
  [
    'http://10.0.0.7:8080',
    true,
    { problem: '--url must use https: http is allowed only for localhost, and 10.0.0.7 is not.' },
  ],
  ['http://localhost:8080', false, { problem: `--url http://localhost:8080 is on this machine; ${HINT}` }],
  ['http://localhost:8080', true, { base: 'http://localhost:8080' }],
  ['http://relay.localhost', true, { base: 'http://relay.localhost' }],
  ['http://127.0.0.1:9', true, { base: 'http://127.0.0.1:9' }],
  ['http://[::1]:9', true, { base: 'http://[::1]:9' }],
  ['http://127.0.0.1:9', false, { problem: `--url http://127.0.0.1:9 is on this machine; ${HINT}` }],
  [
    'https://127.0.0.1',
    false,
    { problem: `--url https://127.0.0.1 points at this machine (a loopback address); ${HINT}` },
  ],
  [
    'https://10.1.2.3',
    false,
    { problem: `--url https://10.1.2.3 points at a private or reserved address; ${HINT}` },
  ],
  [
    'https://192.168.1.20',
    false,
    { problem: `--url https://192.168.1.20 points at a private or reserved address; ${HINT}` },
  ],
  [
    'https://[fd00::5]',
    false,
    { problem: `--url https://[fd00::5] points at a private or reserved address; ${HINT}` },
  ],
  ['https://10.1.2.3', true, { base: 'https://10.1.2.3' }],
  [
    'https://user:pw@relay.example.com',
    false,
    {
      problem: '--url must not carry a user name or password; pairing gives this machine its own credential.',
    },
  ],
  [
    'https://relay.example.com/?x=1',
    false,
    { problem: '--url must be the relay\'s base URL, without "?" query or "#" fragment.' },
  ],
  [
    'https://relay.example.com/#top',
    false,
    { problem: '--url must be the relay\'s base URL, without "?" query or "#" fragment.' },
  ],
];

describe('relay URL rules (notify relay pair --url)', () => {
  for (const [url, allowPrivate, want] of SHAPES) {
    it(`${url}${allowPrivate ? ' --allow-private' : ''}: ${'base' in want ? 'accepted' : 'refused'}`, () => {
      const parsed = parseRelayUrl(url, allowPrivate);
      if ('base' in want) assert.deepEqual(parsed.ok && parsed.value.base, want.base);
      else assert.deepEqual(parsed, { ok: false, problem: want.problem });
    });
  }
});

describe('relay addresses: every one the host resolves to is checked', () => {
  const https = (host: string) => {
    const parsed = parseRelayUrl(`https://${host}`, false);
    assert.ok(parsed.ok);
    return parsed.value;
  };
  const http = (host: string) => {
    const parsed = parseRelayUrl(`http://${host}`, true);
    assert.ok(parsed.ok);
    return parsed.value;
  };

  it('lets a public name through when all its addresses are public', () => {
    assert.deepEqual(
      checkAddresses(https('relay.example.com'), ['93.184.215.14', '2606:2800:21f:cb07::1'], false),
      {
        ok: true,
        value: undefined,
      },
    );
  });

  it('refuses a public name with one private address among public ones, naming it', () => {
    assert.deepEqual(checkAddresses(https('relay.example.com'), ['93.184.215.14', '10.0.0.5'], false), {
      ok: false,
      problem: `relay.example.com resolves to 10.0.0.5, a private or reserved address; ${HINT}`,
    });
  });

  it('refuses a name that points at this machine unless --allow-private', () => {
    const url = https('relay.example.com');
    assert.equal(checkAddresses(url, ['127.0.0.1'], false).ok, false);
    assert.equal(checkAddresses(url, ['127.0.0.1'], true).ok, true);
  });

  it('refuses http to localhost when the name resolves off this machine', () => {
    assert.deepEqual(checkAddresses(http('localhost:8080'), ['127.0.0.1', '192.168.1.4'], true), {
      ok: false,
      problem:
        '--url must use https: http is allowed only for localhost, and localhost resolves to 192.168.1.4, which is not this machine.',
    });
    assert.equal(checkAddresses(http('localhost:8080'), ['127.0.0.1', '::1'], true).ok, true);
  });

  it('refuses a host that resolves to nothing', () => {
    assert.equal(checkAddresses(https('relay.example.com'), [], true).ok, false);
  });
});

describe('address classes', () => {
  const table: [string, string | undefined][] = [
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['::', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2606:4700::1111', 'public'],
    ['relay.example.com', undefined],
    ['1.2.3', undefined],
    ['1::2::3', undefined],
  ];
  for (const [address, want] of table) {
    it(`${address} is ${want ?? 'no address'}`, () => assert.equal(classifyAddress(address), want));
  }
});

describe('origins and profile matching', () => {
  it('compares verification URLs by origin', () => {
    assert.equal(sameOrigin('https://relay.example.com/pair?code=X', 'https://relay.example.com'), true);
    assert.equal(sameOrigin('https://relay.example.com.evil.net/pair', 'https://relay.example.com'), false);
    assert.equal(sameOrigin('http://relay.example.com/pair', 'https://relay.example.com'), false);
    assert.equal(sameOrigin('not a url', 'https://relay.example.com'), false);
  });

  it('matches a stored profile URL written with a trailing slash or another case', () => {
    assert.equal(normalizeRelayBase('https://Relay.example.com/x/'), 'https://relay.example.com/x');
  });
});
