/**
 * What every request to the relay meets before and around its route: health for a load balancer, the
 * installable app's files, the assets' caching, body limits and types, and one error shape for
 * unknown routes and methods. The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INBOX_ASSETS } from '../../src/relay-server/http/assets.js';
import { api, createPairing, WebSession } from '../support/relay-web.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

let relay: InProcessRelay;

before(async () => {
  relay = await startInProcessRelay();
});
after(async () => relay.cleanup());

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, relay.url), { headers });
}

async function errorOf(response: Response): Promise<{ status: number; body: unknown }> {
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return { status: response.status, body: await response.json() };
}

describe('relay server: health', () => {
  it('answers /healthz while the process runs, uncached', async () => {
    const response = await get('/healthz');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  it('says on /readyz whether it can serve: ready, store unreachable, or stopping', async () => {
    const ready = relay.context.ready;
    try {
      const up = await get('/readyz');
      assert.equal(up.status, 200);
      assert.equal(up.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await up.json(), { status: 'ready' });

      relay.context.ready = async () => false;
      const down = await get('/readyz');
      assert.equal(down.status, 503);
      assert.deepEqual(await down.json(), { status: 'unavailable' });

      relay.context.ready = async () => {
        throw new Error('database is locked');
      };
      const failing = await get('/readyz');
      assert.equal(failing.status, 503, 'a failing check is not ready, and not a crash');
      assert.deepEqual(await failing.json(), { status: 'unavailable' });

      relay.context.ready = ready;
      relay.context.stopping = true;
      const stopping = await get('/readyz');
      assert.equal(stopping.status, 503);
      assert.deepEqual(await stopping.json(), { status: 'stopping' });
    } finally {
      relay.context.ready = ready;
      relay.context.stopping = false;
    }
  });
});

describe('relay server: the installable app', () => {
  it('describes the app in its manifest: the relay name, the inbox as start, the icons', async () => {
    const response = await get('/manifest.webmanifest');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/manifest+json; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const manifest = (await response.json()) as Record<string, unknown>;
    assert.equal(manifest['name'], 'Test relay');
    assert.equal(manifest['short_name'], 'Notify');
    assert.equal(manifest['start_url'], '/inbox');
    assert.equal(manifest['id'], '/inbox');
    assert.equal(manifest['scope'], '/');
    assert.equal(manifest['display'], 'standalone');
    assert.equal(manifest['theme_color'], '#2456d6');
    assert.equal(manifest['background_color'], '#f6f7f9');
    assert.equal(manifest['description'], "Your agents' requests, and your answers, from your own relay.");
    const icons = manifest['icons'] as { src: string; sizes: string; type: string; purpose: string }[];
    assert.deepEqual(
      icons.map((icon) => `${icon.src} ${icon.sizes} ${icon.type} ${icon.purpose}`),
      [
        '/icons/icon-192.png 192x192 image/png any',
        '/icons/icon-512.png 512x512 image/png any',
        '/icons/maskable-512.png 512x512 image/png maskable',
      ],
    );
    for (const icon of icons) {
      const image = await get(icon.src);
      assert.equal(image.status, 200, icon.src);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.equal(image.headers.get('cache-control'), 'public, max-age=86400');
      const bytes = Buffer.from(await image.arrayBuffer());
      assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${icon.src} is a PNG image`);
    }
  });

  it('serves the apple touch icon and the service worker, and 404 for an icon it does not have', async () => {
    const touch = await get('/apple-touch-icon.png');
    assert.equal(touch.status, 200);
    assert.equal(touch.headers.get('content-type'), 'image/png');
    assert.equal(touch.headers.get('cache-control'), 'public, max-age=86400');
    assert.equal(
      Buffer.from(await touch.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
      'PNG',
    );

    const worker = await get('/sw.js');
    assert.equal(worker.status, 200);
    assert.equal(worker.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(
      worker.headers.get('cache-control'),
      'no-cache',
      'a browser checks for a new worker each visit',
    );
    assert.match(await worker.text(), /addEventListener\(['"]push['"]/);

    const missing = await errorOf(await get('/icons/icon-1024.png'));
    assert.deepEqual(missing, {
      status: 404,
      body: { error: 'not_found', error_description: 'No such icon.' },
    });
  });
});

describe('relay server: assets', () => {
  it("caches the inbox's hashed files for good and checks the relay's stylesheet each time", async () => {
    const relayCss = await get('/assets/relay.css');
    assert.equal(relayCss.status, 200);
    assert.equal(relayCss.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(relayCss.headers.get('cache-control'), 'no-cache');
    assert.ok((await relayCss.text()).length > 0);

    for (const [path, type] of [
      [INBOX_ASSETS.script, 'text/javascript; charset=utf-8'],
      [INBOX_ASSETS.stylesheet, 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await get(path);
      assert.equal(asset.status, 200, path);
      assert.equal(asset.headers.get('content-type'), type);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
    assert.deepEqual(await errorOf(await get('/assets/no-such-file.js')), {
      status: 404,
      body: { error: 'not_found', error_description: 'No such asset.' },
    });
  });

  it('answers a favicon request with nothing, cached for a day', async () => {
    const response = await get('/favicon.ico');
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('cache-control'), 'max-age=86400');
  });
});

describe('relay server: bodies, routes and methods', () => {
  const pairings = (body: string, contentType: string): Promise<Response> =>
    fetch(new URL('/v1/pairings', relay.url), {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  it('refuses a body that is not JSON on the API, naming the type to send', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      assert.deepEqual(await errorOf(await pairings('sender_name=x', contentType)), {
        status: 415,
        body: { error: 'unsupported_media_type', error_description: 'Send the body as application/json.' },
      });
    }
  });

  it('says a malformed JSON body is not valid JSON', async () => {
    assert.deepEqual(await errorOf(await pairings('{"sender_name":', 'application/json')), {
      status: 400,
      body: { error: 'invalid_request', error_description: 'The body is not valid JSON.' },
    });
  });

  it('refuses a JSON body over 64 KiB and a form over 8 KiB, naming both limits', async () => {
    const tooLarge = {
      status: 413,
      body: {
        error: 'payload_too_large',
        error_description: 'The body is larger than the limit (65536 bytes for JSON, 8192 for forms).',
      },
    };
    const json = JSON.stringify({ sender_name: 'x'.repeat(65_536) });
    assert.deepEqual(await errorOf(await pairings(json, 'application/json')), tooLarge);
    const form = await fetch(new URL('/sign-in', relay.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=${'x'.repeat(8_200)}`,
    });
    assert.deepEqual(await errorOf(form), tooLarge);
  });

  it('refuses a JSON body that would set a prototype, rather than quietly dropping that part', async () => {
    for (const body of [
      '{"sender_name":"laptop","__proto__":{"approved":true}}',
      '{"sender_name":"laptop","constructor":{"prototype":{"approved":true}}}',
    ]) {
      assert.deepEqual(await errorOf(await pairings(body, 'application/json')), {
        status: 400,
        body: { error: 'invalid_request', error_description: 'The body is not valid JSON.' },
      });
    }
  });

  it('takes an empty JSON body as no body, as a poll sends it', async () => {
    const pairing = await createPairing(relay);
    relay.advance(pairing.interval * 1000);
    const poll = await fetch(new URL(`/v1/pairings/${pairing.pairing_id}/poll`, relay.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pairing.poll_secret}` },
      body: '',
    });
    assert.equal(poll.status, 200);
    assert.deepEqual(await poll.json(), { status: 'pending' });
  });

  it('answers 404 for an unknown route and 405 for a known API path with another method', async () => {
    assert.deepEqual(await errorOf(await get('/v2/anything')), {
      status: 404,
      body: { error: 'not_found', error_description: 'No such route.' },
    });
    for (const [method, path] of [
      ['DELETE', '/v1/pairings'],
      ['PATCH', '/v1/installation'],
      ['PUT', '/v1/events'],
      ['GET', '/v1/notifications/n-1/status'],
      ['POST', '/.well-known/notify-relay'],
    ] as const) {
      const response = await api(relay, method, path);
      assert.equal(response.status, 405, `${method} ${path}`);
      assert.deepEqual(response.body, {
        error: 'method_not_allowed',
        error_description: 'This path does not take this method.',
      });
    }
  });

  it('serves every part of the protocol and the inbox at its path, asking for a credential', async () => {
    for (const [method, path] of [
      ['GET', '/v1/events'],
      ['POST', '/v1/notifications/n-1/answer-link'],
      ['GET', '/v1/inbox/notifications'],
      ['GET', '/v1/inbox/push/key'],
    ] as const) {
      const response = await api(relay, method, path);
      assert.equal(response.status, 401, `${method} ${path}`);
    }
  });

  it('asks for a bearer credential with its 401', async () => {
    const response = await api(relay, 'GET', '/v1/installation', { bearer: 'nrc_wrong' });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    const refused = await api(relay, 'GET', '/v2/anything');
    assert.equal(refused.headers.get('www-authenticate'), null, 'only a 401 asks for a credential');
    assert.equal(refused.headers.get('retry-after'), null, 'only a refusal for now says when to come back');
  });
});

describe('relay server: what every answer carries', () => {
  it('sends the security headers with pages, assets, API answers and errors alike', async () => {
    for (const path of [
      '/sign-in',
      '/assets/relay.css',
      '/healthz',
      '/v2/anything',
      '/manifest.webmanifest',
    ]) {
      const response = await get(path);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'|default-src 'self'/, `${path}: a content security policy`);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('referrer-policy'), 'same-origin', path);
    }
  });

  it("reads a page's form, taking the first of two fields with one name", async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    const post = (body: string): Promise<Response> =>
      fetch(new URL('/sign-in', relay.url), {
        method: 'POST',
        headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
    const genuineFirst = await post(
      `csrf=${browser.csrf}&csrf=forged&username=nobody&password=not-the-password`,
    );
    assert.equal(genuineFirst.status, 401, 'the form was read and the sign-in tried');
    assert.match(await genuineFirst.text(), /Wrong user name or password\./);
    const forgedFirst = await post(
      `csrf=forged&csrf=${browser.csrf}&username=nobody&password=not-the-password`,
    );
    assert.equal(forgedFirst.status, 403, 'a second, genuine token does not rescue a forged first one');
  });

  it('says a request with a broken path is malformed, in its own error shape, without echoing the URL', async () => {
    for (const [path, description] of [
      ['/v1/notifications/%zz?token=nru_secret', 'The request is malformed.'],
      [`/v1/notifications/${'n'.repeat(201)}?token=nru_secret`, 'A part of the path is too long.'],
    ] as const) {
      const response = await get(path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', 'with the security headers');
      const text = JSON.stringify(await errorOf(response));
      assert.equal(
        text,
        JSON.stringify({ status: 400, body: { error: 'invalid_request', error_description: description } }),
      );
      assert.ok(!text.includes('nru_secret'));
    }
    const longest = await api(relay, 'PUT', `/v1/notifications/${'n'.repeat(200)}`);
    assert.equal(longest.status, 401, 'a 200-character id reaches its route, which asks for a credential');
  });

  it('tells a client that sends too often when to come back, and only then', async () => {
    relay.advance(61_000);
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      answers.push(await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'burst' } }));
    }
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [...Array<number>(10).fill(201), 429],
    );
    assert.equal(answers[0]?.headers.get('retry-after'), null);
    assert.match(answers[10]?.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });
});

describe('relay server: a failure of its own', () => {
  it('answers 500 with the shared error shape and logs the error without the request', async () => {
    const broken = await startInProcessRelay();
    try {
      await broken.store.close();
      const response = await api(broken, 'GET', '/v1/installation', {
        bearer: 'nrc_secret-that-must-not-be-logged',
      });
      assert.equal(response.status, 500);
      assert.deepEqual(response.body, {
        error: 'server_error',
        error_description: 'The relay failed; its log says why. Nothing was changed.',
      });
      assert.equal(broken.logged.length, 1);
      assert.match(
        broken.logged[0] ?? '',
        /^\d{4}-\d\d-\d\dT[\d:.]+Z \[ERROR\] error: The database connection is not open$/,
      );
      assert.ok(!broken.logged[0]?.includes('nrc_secret'), 'the credential is not logged');
    } finally {
      await broken.cleanup();
    }
  });
});

describe('relay server: what it logs', () => {
  it('writes no line per request: a setup link’s token in the URL never reaches the log', async () => {
    const written: string[] = [];
    const write = process.stdout.write;
    // Everything still goes out; a copy is kept. Replaced before the relay starts, so a logger it made would write here.
    process.stdout.write = function (this: typeof process.stdout, ...args: Parameters<typeof write>) {
      written.push(String(args[0]));
      return write.apply(this, args);
    } as typeof write;
    let logged: InProcessRelay | undefined;
    try {
      logged = await startInProcessRelay();
      const setup = await fetch(logged.setupUrl);
      assert.equal(setup.status, 200);
      await setup.text();
    } finally {
      process.stdout.write = write;
      await logged?.cleanup();
    }
    const token = new URL(logged.setupUrl).searchParams.get('token') ?? '';
    assert.match(token, /^nru_/);
    assert.ok(!written.join('').includes(token), 'the setup token is not in the log');
  });
});
