/** The relay protocol of docs/relay-protocol.md against the real notify-relay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  createPairing,
  decide,
  pollOnTime,
  setUpOperator,
  type WebSession,
} from '../support/relay-web.js';

let relay: RelayProcess;
let web: WebSession;

before(async () => {
  relay = await startRelay();
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

describe('discovery', () => {
  it('GET /.well-known/notify-relay names the service, the relay and API v1', async () => {
    const response = await api(relay, 'GET', '/.well-known/notify-relay');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { service: 'notify-relay', name: 'Test relay', api_versions: ['v1'] });
  });
});

describe('pairing creation', () => {
  it('answers a pairing id, an XXXX-XXXX code, URLs on its own origin, a poll secret, expiry and interval', async () => {
    const pairing = await createPairing(relay);
    assert.match(pairing.user_code, /^[BCDFGHJKLMNPQRSTVWXZ2-9]{4}-[BCDFGHJKLMNPQRSTVWXZ2-9]{4}$/);
    assert.equal(pairing.verification_uri, `${relay.url}/pair`);
    assert.equal(pairing.verification_uri_complete, `${relay.url}/pair?code=${pairing.user_code}`);
    assert.match(pairing.poll_secret, /^nrp_[A-Za-z0-9_-]{43}$/);
    assert.match(pairing.pairing_id, /^[A-Za-z0-9_-]{1,64}$/);
    assert.equal(pairing.expires_in, 600);
    assert.equal(pairing.interval, 5);
  });

  const refused: [string, unknown, number, string][] = [
    ['no sender_name', { client: 'notify/0.1.0' }, 400, 'invalid_request'],
    ['an empty sender_name', { sender_name: '   ' }, 400, 'invalid_request'],
    ['a sender_name over 100 characters', { sender_name: 'x'.repeat(101) }, 400, 'invalid_request'],
    ['a control character', { sender_name: 'evil\u001b[31m' }, 400, 'invalid_request'],
    ['a client that is no string', { sender_name: 'a', client: 7 }, 400, 'invalid_request'],
    ['an array body', ['sender_name'], 400, 'invalid_request'],
  ];
  for (const [what, body, status, error] of refused) {
    it(`refuses ${what} with ${status} ${error}`, async () => {
      relay.advance(61_000);
      const response = await api(relay, 'POST', '/v1/pairings', { body });
      assert.equal(response.status, status);
      assert.equal(response.body['error'], error);
      assert.equal(typeof response.body['error_description'], 'string');
    });
  }

  it('refuses malformed JSON (400), a form body (415) and a body over 64 KiB (413)', async () => {
    const post = (body: string, type: string) =>
      fetch(`${relay.url}/v1/pairings`, { method: 'POST', headers: { 'content-type': type }, body });
    const malformed = await post('{"sender_name":', 'application/json');
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: string }).error, 'invalid_request');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const form = await post('sender_name=x', type);
      assert.equal(form.status, 415, type);
      assert.equal(((await form.json()) as { error: string }).error, 'unsupported_media_type');
    }
    const huge = await post(
      JSON.stringify({ sender_name: 'x', pad: 'y'.repeat(70_000) }),
      'application/json',
    );
    assert.equal(huge.status, 413);
    assert.equal(((await huge.json()) as { error: string }).error, 'payload_too_large');
  });
});

describe('polling', () => {
  it('pending while nobody answered, slow_down (+5 s) when polled sooner than the interval', async () => {
    const pairing = await createPairing(relay);
    const steps: [number, Record<string, unknown>][] = [
      [5_000, { status: 'pending' }],
      [1_000, { status: 'slow_down', interval: 10 }],
      [5_000, { status: 'slow_down', interval: 15 }],
      [15_000, { status: 'pending' }],
      [14_600, { status: 'pending' }],
      [0, { status: 'slow_down', interval: 20 }],
    ];
    for (const [wait, expected] of steps) {
      relay.advance(wait);
      const polled = await api(relay, 'POST', `/v1/pairings/${pairing.pairing_id}/poll`, {
        bearer: pairing.poll_secret,
      });
      assert.equal(polled.status, 200);
      assert.deepEqual(polled.body, expected, `after ${wait} ms`);
    }
  });

  it('a first poll before the interval has passed since creation is too fast', async () => {
    const pairing = await createPairing(relay);
    const polled = await api(relay, 'POST', `/v1/pairings/${pairing.pairing_id}/poll`, {
      bearer: pairing.poll_secret,
    });
    assert.deepEqual(polled.body, { status: 'slow_down', interval: 10 });
  });

  it('a poll may carry no body, an empty body with Content-Type: application/json, or {}', async () => {
    const pairing = await createPairing(relay);
    for (const init of [
      {},
      { headers: { 'content-type': 'application/json' } },
      { body: '{}', headers: { 'content-type': 'application/json' } },
    ]) {
      relay.advance(5_000);
      const response = await fetch(`${relay.url}/v1/pairings/${pairing.pairing_id}/poll`, {
        method: 'POST',
        ...init,
        headers: { authorization: `Bearer ${pairing.poll_secret}`, ...init.headers },
      });
      assert.equal(response.status, 200, JSON.stringify(init));
      assert.deepEqual(await response.json(), { status: 'pending' });
    }
  });

  it('approved once with a credential and the installation, then consumed', async () => {
    const pairing = await createPairing(relay, 'ada-desktop');
    await decide(web, pairing, 'approve');
    const approved = await pollOnTime(relay, pairing);
    assert.equal(approved.status, 200);
    assert.equal(approved.body['status'], 'approved');
    assert.match(approved.body['credential'] as string, /^nrc_[A-Za-z0-9_-]{43}$/);
    const installation = approved.body['installation'] as { id: string; name: string };
    assert.equal(installation.name, 'ada-desktop');
    assert.match(installation.id, /^i_/);
    const again = await pollOnTime(relay, pairing);
    assert.deepEqual(again.body, { status: 'consumed' });
    const verified = await api(relay, 'GET', '/v1/installation', {
      bearer: approved.body['credential'] as string,
    });
    assert.equal(verified.status, 200);
    assert.equal(verified.body['id'], installation.id);
    assert.equal(verified.body['name'], 'ada-desktop');
    assert.equal(verified.body['relay_name'], 'Test relay');
    // The account that approved the pairing, so the laptop can tell the person whose it now is.
    assert.equal(verified.body['owner'], 'ada');
    assert.ok(!Number.isNaN(Date.parse(verified.body['created_at'] as string)));
  });

  it('rejected, and rejected again on the next poll; the code no longer opens on the page', async () => {
    const pairing = await createPairing(relay);
    await decide(web, pairing, 'reject');
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'rejected' });
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'rejected' });
    assert.equal((await web.get(`/pair?code=${pairing.user_code}`)).status, 404);
  });

  it('expired after expires_in, even when approved but not collected in time', async () => {
    const waiting = await createPairing(relay);
    const approvedLate = await createPairing(relay);
    await decide(web, approvedLate, 'approve');
    relay.advance(601_000);
    assert.deepEqual((await pollOnTime(relay, waiting)).body, { status: 'expired' });
    assert.deepEqual((await pollOnTime(relay, approvedLate)).body, { status: 'expired' });
    assert.equal((await web.get(`/pair?code=${waiting.user_code}`)).status, 404);
  });

  it('an ended pairing is forgotten an hour later: its polls get 401', async () => {
    const pairing = await createPairing(relay);
    await decide(web, pairing, 'reject');
    relay.advance(3_601_000);
    const polled = await pollOnTime(relay, pairing);
    assert.equal(polled.status, 401);
  });

  const invalid: [
    string,
    (pairing: { pairing_id: string; poll_secret: string }) => [string, string | undefined],
  ][] = [
    ['a wrong poll secret', (p) => [p.pairing_id, `nrp_${'A'.repeat(43)}`]],
    ['no Authorization header', (p) => [p.pairing_id, undefined]],
    ['an unknown pairing id', (p) => ['p_unknown', p.poll_secret]],
    ['another pairing’s secret', (p) => [p.pairing_id, 'nrp_x']],
  ];
  for (const [what, make] of invalid) {
    it(`401 invalid_auth for ${what}`, async () => {
      const pairing = await createPairing(relay);
      const [id, secret] = make(pairing);
      relay.advance(5_000);
      const polled = await api(
        relay,
        'POST',
        `/v1/pairings/${id}/poll`,
        secret === undefined ? {} : { bearer: secret },
      );
      assert.equal(polled.status, 401);
      assert.equal(polled.body['error'], 'invalid_auth');
      assert.equal(polled.headers.get('www-authenticate'), 'Bearer');
    });
  }
});
