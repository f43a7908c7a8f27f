/** The phone push contract of the inbox API (docs/relay-protocol.md "Phone push") against the real notify-relay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PushService } from '../support/push-service.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { setUpOperator, WebSession } from '../support/relay-web.js';
import { addDevice, devices, PUSH_ARGS } from './push-support.js';

let relay: RelayProcess;
let web: WebSession;
let service: PushService;

before(async () => {
  service = await PushService.start();
  relay = await startRelay({ args: PUSH_ARGS });
  web = await setUpOperator(relay);
});
after(async () => {
  await relay.cleanup();
  await service.stop();
});

const validKeys = () => service.subscribe().keys;

describe('phone push: the inbox API', () => {
  it('GET /v1/inbox/push/key gives the VAPID public key (an uncompressed P-256 point), signed in only', async () => {
    const key = await web.inbox('GET', '/v1/inbox/push/key');
    assert.equal(key.status, 200);
    const point = Buffer.from(key.body['publicKey'] as string, 'base64url');
    assert.equal(point.length, 65);
    assert.equal(point[0], 4);
    const signedOut = await new WebSession(relay).inbox('GET', '/v1/inbox/push/key');
    assert.equal(signedOut.status, 401);
    assert.equal(signedOut.body['error'], 'invalid_auth');
  });

  it('registers, lists, refuses and removes devices with the session and CSRF rules', async () => {
    const cases: [string, unknown, number, RegExp | undefined][] = [
      ['no endpoint', { keys: validKeys() }, 400, /endpoint must be an https URL/],
      ['plain http elsewhere', { endpoint: 'http://push.example.org/x', keys: validKeys() }, 400, /https/],
      ['not a URL', { endpoint: 'push', keys: validKeys() }, 400, /endpoint/],
      [
        'a key off the curve',
        {
          endpoint: 'https://push.example.org/x',
          keys: { ...validKeys(), p256dh: Buffer.alloc(65, 4).toString('base64url') },
        },
        400,
        /keys\.p256dh/,
      ],
      [
        'a short auth',
        { endpoint: 'https://push.example.org/x', keys: { ...validKeys(), auth: 'AAAA' } },
        400,
        /keys\.auth/,
      ],
      [
        'a name with a control character',
        { endpoint: 'https://push.example.org/x', keys: validKeys(), name: 'a\u0007b' },
        400,
        /name/,
      ],
    ];
    for (const [what, body, status, message] of cases) {
      const answer = await web.inbox('POST', '/v1/inbox/push/subscriptions', body);
      assert.equal(answer.status, status, what);
      assert.equal(answer.body['error'], 'invalid_request', what);
      assert.match(answer.body['error_description'] as string, message!, what);
    }
    assert.deepEqual(await devices(web), [], 'nothing refused was kept');

    const body = { endpoint: 'https://push.example.org/send/abc', keys: validKeys(), name: 'Phone' };
    const noCsrf = await web.inbox('POST', '/v1/inbox/push/subscriptions', body, '');
    assert.equal(noCsrf.status, 403);
    assert.equal(noCsrf.body['error'], 'csrf');
    const signedOut = await new WebSession(relay).inbox('POST', '/v1/inbox/push/subscriptions', body, 'x');
    assert.equal(signedOut.status, 401);

    const added = await web.inbox('POST', '/v1/inbox/push/subscriptions', body);
    assert.equal(added.status, 201);
    const id = added.body['id'] as string;
    assert.match(id, /^[A-Za-z0-9_-]{1,64}$/);
    const again = await web.inbox('POST', '/v1/inbox/push/subscriptions', { ...body, name: 'Phone again' });
    assert.deepEqual(
      [again.status, again.body['id']],
      [200, id],
      'the same browser again is the same device',
    );
    const listed = await devices(web);
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.name, 'Phone again');
    assert.ok(!('endpoint' in listed[0]!), 'the endpoint (a capability) is never listed');
    assert.ok(Date.parse(listed[0]!.added_at) > 0);

    const deleteNoCsrf = await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`, undefined, '');
    assert.equal(deleteNoCsrf.status, 403);
    assert.equal((await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`)).status, 204);
    const gone = await web.inbox('DELETE', `/v1/inbox/push/subscriptions/${id}`);
    assert.deepEqual([gone.status, gone.body['error']], [404, 'not_found']);
    assert.deepEqual(await devices(web), []);
  });

  it('takes a loopback endpoint only with --allow-loopback-push', async () => {
    const plain = await startRelay();
    try {
      const other = await setUpOperator(plain);
      const refused = await other.inbox('POST', '/v1/inbox/push/subscriptions', service.subscribe());
      assert.equal(refused.status, 400);
      assert.match(refused.body['error_description'] as string, /--allow-loopback-push/);
    } finally {
      await plain.cleanup();
    }
    const { id } = await addDevice(web, service);
    assert.ok((await devices(web)).some((device) => device.id === id));
  });

  it('keeps a lock-screen privacy choice per person: full, title or generic', async () => {
    assert.equal((await web.inbox('GET', '/v1/inbox/push/subscriptions')).body['privacy'], 'full');
    const bad = await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'some' });
    assert.equal(bad.status, 400);
    const noCsrf = await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'generic' }, '');
    assert.equal(noCsrf.status, 403);
    const set = await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'generic' });
    assert.deepEqual([set.status, set.body], [200, { privacy: 'generic' }]);
    assert.equal((await web.inbox('GET', '/v1/inbox/push/subscriptions')).body['privacy'], 'generic');
    await web.inbox('PUT', '/v1/inbox/push/privacy', { privacy: 'full' });
  });

  it('serves the web app: manifest, icons, apple-touch-icon and the service worker at /sw.js', async () => {
    const manifest = (await (await fetch(new URL('/manifest.webmanifest', relay.url))).json()) as Record<
      string,
      unknown
    >;
    assert.equal(manifest['start_url'], '/inbox');
    assert.equal(manifest['display'], 'standalone');
    assert.equal(manifest['short_name'], 'Notify');
    const icons = manifest['icons'] as { src: string; sizes: string; purpose: string }[];
    assert.deepEqual(
      icons.map((icon) => `${icon.sizes} ${icon.purpose}`),
      ['192x192 any', '512x512 any', '512x512 maskable'],
    );
    for (const src of [...icons.map((icon) => icon.src), '/apple-touch-icon.png']) {
      const response = await fetch(new URL(src, relay.url));
      assert.equal(response.headers.get('content-type'), 'image/png', src);
      assert.deepEqual([...new Uint8Array(await response.arrayBuffer()).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    }
    const worker = await fetch(new URL('/sw.js', relay.url));
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get('content-type')!, /javascript/);
    assert.match(await worker.text(), /notificationclick/);
    const inbox = await web.get('/inbox');
    assert.match(inbox.text, /<link rel="manifest" href="\/manifest.webmanifest">/);
    assert.match(inbox.text, /<link rel="apple-touch-icon" href="\/apple-touch-icon.png">/);
  });
});
