import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpRequest } from '../support/http-request.js';
import { builtPage, startClockedBroker, type ClockedBroker } from '../support/web-session.js';

describe('the built page, served by the broker', () => {
  const root = builtPage();
  const broker = {} as ClockedBroker;
  before(async () => {
    Object.assign(broker, await startClockedBroker({ webRoot: root }));
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('/ and /index.html: the page, without the token, revalidated on every load', async () => {
    for (const path of ['/', '/index.html']) {
      const response = await fetch(`${broker.baseUrl}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.match(await response.text(), /<script src="\/assets\/app-abc123\.js">/);
      const etag = response.headers.get('etag')!;
      const unchanged = await fetch(`${broker.baseUrl}${path}`, { headers: { 'if-none-match': etag } });
      assert.equal(unchanged.status, 304, path);
    }
  });

  it('a new build shows at the next load', async () => {
    const before = await fetch(`${broker.baseUrl}/`);
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Notify, rebuilt</title>\n');
    const response = await fetch(`${broker.baseUrl}/`, {
      headers: { 'if-none-match': before.headers.get('etag')! },
    });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /rebuilt/);
  });

  it('/assets/*: cached for good, with the type of each file', async () => {
    for (const [name, type] of [
      ['app-abc123.js', 'text/javascript; charset=utf-8'],
      ['app-abc123.css', 'text/css; charset=utf-8'],
    ]) {
      const response = await fetch(`${broker.baseUrl}/assets/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), type);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
  });

  it('nothing outside assets/, and a missing asset is a 404', async () => {
    for (const path of [
      '/assets/missing.js',
      '/assets/..%2Findex.html',
      '/assets/%2E%2E%2F%2E%2E%2Fconfig.json',
      '/assets/.hidden',
    ]) {
      const response = await httpRequest({
        port: broker.port,
        method: 'GET',
        path,
        headers: { host: `127.0.0.1:${broker.port}` },
      });
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(response.body, /Notify, rebuilt|<title>/, path);
    }
  });
});

describe('without a built page', () => {
  const broker = {} as ClockedBroker;
  before(async () => {
    Object.assign(broker, await startClockedBroker({ webRoot: join(process.cwd(), 'no-such-folder') }));
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  it('/ answers 503 with one sentence saying how to build it; the API works', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js']) {
      const response = await fetch(`${broker.baseUrl}${path}`);
      assert.equal(response.status, 503, path);
      assert.equal(
        await response.text(),
        'The Notify web page is not built: run `npm run build` in the Notify checkout, then reload this page.\n',
      );
    }
    assert.equal((await broker.request('GET', '/v1/health')).status, 200);
  });
});
