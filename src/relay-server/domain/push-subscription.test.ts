import assert from 'node:assert/strict';
import { createECDH } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkSubscription, isLoopbackHost } from './push-subscription.js';

const device = createECDH('prime256v1');
device.generateKeys();
const p256dh = device.getPublicKey().toString('base64url');
const auth = Buffer.alloc(16, 7).toString('base64url');
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc123';

const NOT_HTTPS = 'endpoint must be an https URL of at most 2000 characters.';
const PRIVATE_NETWORK =
  'endpoint is on a private network; the relay posts only to push services on the internet.';
const ON_THIS_MACHINE = 'endpoint is on this machine; the relay takes those only with --allow-loopback-push.';
const BAD_P256DH = 'keys.p256dh must be an uncompressed P-256 point in base64url.';
const BAD_AUTH = 'keys.auth must be 16 bytes in base64url.';
const BAD_NAME = 'name must be 1-100 characters without control characters.';

function subscription(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { endpoint, keys: { p256dh, auth }, ...overrides };
}

function refusal(body: unknown, allowLoopback = false): string {
  const checked = checkSubscription(body, allowLoopback);
  assert.ok(!checked.ok, `accepted ${JSON.stringify(body)}`);
  return checked.message;
}

describe('checkSubscription', () => {
  it("takes a browser's PushSubscription.toJSON() as it is, named 'This device' by default", () => {
    const checked = checkSubscription({ ...subscription(), expirationTime: null }, false);
    assert.deepEqual(checked, { ok: true, value: { endpoint, p256dh, auth, name: 'This device' } });
  });

  it('keeps the name the person gave, trimmed', () => {
    const checked = checkSubscription(subscription({ name: '  Pixel 8  ' }), false);
    assert.ok(checked.ok);
    assert.equal(checked.value.name, 'Pixel 8');
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, 'text', 3, [subscription()]]) {
      assert.equal(refusal(body), 'The body must be a JSON object.');
    }
  });

  it('posts only to https: http, other schemes, a missing or unparsable endpoint are refused', () => {
    for (const bad of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'ftp://push.example/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      '',
      42,
      undefined,
      ['https://push.example/x'],
    ]) {
      assert.equal(refusal(subscription({ endpoint: bad })), NOT_HTTPS, String(bad));
    }
  });

  it('refuses an endpoint on a private network, however its address is written, even with loopback allowed', () => {
    for (const address of [
      '10.0.0.5',
      '167772161',
      '192.168.1.1',
      '169.254.169.254',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:10.0.0.1]',
    ]) {
      for (const allowLoopback of [false, true]) {
        const checked = checkSubscription(
          subscription({ endpoint: `https://${address}/push/x` }),
          allowLoopback,
        );
        assert.deepEqual(
          checked,
          { ok: false, message: PRIVATE_NETWORK },
          `${address}, loopback ${allowLoopback ? 'allowed' : 'refused'}`,
        );
      }
    }
    assert.equal(checkSubscription(subscription({ endpoint: 'https://8.8.8.8/push/x' }), false).ok, true);
  });

  it('refuses an endpoint carrying a user name or password (credentials the relay would send along)', () => {
    assert.equal(refusal(subscription({ endpoint: 'https://user@push.example/x' })), NOT_HTTPS);
    assert.equal(refusal(subscription({ endpoint: 'https://:secret@push.example/x' })), NOT_HTTPS);
  });

  it('takes an endpoint of 2000 characters, not one longer', () => {
    const base = 'https://push.example/';
    const exact = base + 'a'.repeat(2000 - base.length);
    const checked = checkSubscription(subscription({ endpoint: exact }), false);
    assert.ok(checked.ok);
    assert.equal(checked.value.endpoint, exact);
    assert.equal(refusal(subscription({ endpoint: `${exact}a` })), NOT_HTTPS);
  });

  it('refuses an endpoint on this machine unless --allow-loopback-push, whatever the scheme', () => {
    for (const local of [
      'https://localhost/push',
      'http://localhost:8080/push',
      'https://LOCALHOST/push',
      'https://phone.localhost/push',
      'https://127.0.0.1/push',
      'https://127.8.9.10:4443/push',
      'https://[::1]/push',
      'https://localhost./push',
      'https://phone.localhost./push',
      'https://0.0.0.0/push',
      'https://[::]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://[0:0:0:0:0:0:0:1]/push',
    ]) {
      assert.equal(refusal(subscription({ endpoint: local })), ON_THIS_MACHINE, local);
    }
  });

  it('with --allow-loopback-push takes http or https on this machine, but never http elsewhere', () => {
    for (const local of ['http://127.0.0.1:8080/push', 'https://localhost/push', 'http://[::1]:9/push']) {
      const checked = checkSubscription(subscription({ endpoint: local }), true);
      assert.ok(checked.ok, local);
      assert.equal(checked.value.endpoint, local);
    }
    assert.equal(refusal(subscription({ endpoint: 'http://push.example/x' }), true), NOT_HTTPS);
    assert.equal(refusal(subscription({ endpoint: 'ftp://127.0.0.1/x' }), true), NOT_HTTPS);
  });

  it('refuses a p256dh key that is missing, not base64url, the wrong size, compressed or off the curve', () => {
    const point = device.getPublicKey();
    const offCurve = Buffer.from(point);
    offCurve[64] = offCurve[64]! ^ 1;
    const compressed = device.getPublicKey(undefined, 'compressed').toString('base64url');
    // The hybrid form (0x06/0x07) holds the same point and OpenSSL takes it; RFC 8291 wants 0x04.
    const hybrid = Buffer.from(point);
    hybrid[0] = 6 + (point[64]! & 1);
    for (const bad of [
      undefined,
      42,
      `${p256dh.slice(0, -1)}+`,
      point.toString('base64'),
      point.subarray(0, 64).toString('base64url'),
      Buffer.concat([point, Buffer.of(0)]).toString('base64url'),
      compressed,
      Buffer.concat([Buffer.of(4), Buffer.alloc(64)]).toString('base64url'),
      offCurve.toString('base64url'),
      hybrid.toString('base64url'),
      ` ${p256dh}`,
    ]) {
      assert.equal(refusal(subscription({ keys: { p256dh: bad, auth } })), BAD_P256DH, String(bad));
    }
    assert.equal(refusal(subscription({ keys: undefined })), BAD_P256DH);
    assert.equal(refusal(subscription({ keys: null })), BAD_P256DH);
  });

  it('refuses an auth secret that is missing, not base64url or not 16 bytes', () => {
    for (const bad of [
      undefined,
      16,
      Buffer.alloc(15).toString('base64url'),
      Buffer.alloc(17).toString('base64url'),
      `${auth.slice(0, -1)}/`,
      ` ${auth}`,
      'A'.repeat(201),
    ]) {
      assert.equal(refusal(subscription({ keys: { p256dh, auth: bad } })), BAD_AUTH, String(bad));
    }
  });

  it('refuses a name that is empty, over 100 characters, not text or holding control characters', () => {
    for (const bad of ['', '   ', 'x'.repeat(101), 7, 'Pixel\n8']) {
      assert.equal(refusal(subscription({ name: bad })), BAD_NAME, String(bad));
    }
    const longest = checkSubscription(subscription({ name: 'x'.repeat(100) }), false);
    assert.ok(longest.ok);
  });
});

describe('isLoopbackHost', () => {
  it('knows this machine, and nothing else, by name or address', () => {
    for (const host of ['localhost', 'localhost.', 'a.b.localhost', '127.0.0.1', '127.255.0.1', '0.0.0.0']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ['[::1]', '::1', '[::]', '[::ffff:7f00:1]', 'LocalHost']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of [
      'example.com',
      'localhost.example.com',
      'mylocalhost',
      '128.0.0.1',
      '[::2]',
      '[::ffff:a00:1]',
    ]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});
