import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { asPage, signIn } from '../support/web-session.js';

interface Operation {
  security?: unknown[];
}

/**
 * Issue 29: browsers send a cookie of 127.0.0.1 to every port of it, so whatever listens on another
 * loopback port receives it. A session's secret in a Cookie header opens nothing, on any route.
 */
describe("a cookie alone is worthless, even holding a live session's secret", () => {
  const broker = useBroker();

  it('every authenticated route answers 401 to it, and nothing changes', async () => {
    const secret = await signIn(broker);
    const request = (await (
      await broker.request('POST', '/v1/notifications', {
        title: 'Allow rm -rf build?',
        message: 'm',
        type: 'permission_required',
        actions: [
          { id: 'allow', label: 'Allow' },
          { id: 'deny', label: 'Deny' },
        ],
      })
    ).json()) as { id: string };
    const document = (await (await broker.request('GET', '/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const bodies: Record<string, unknown> = {
      'POST /v1/notifications/{id}/answer': { action: 'allow', surface: 'web' },
      'POST /v1/providers': { kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } },
      'PATCH /v1/settings': { doNotDisturb: true },
    };
    const cookies = [`notify_session=${secret}`, `theme=dark; notify_session=${secret}`, secret];
    let tried = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.security?.length === 0) continue; // a public route: /health and the like
        const path = template.replace(
          /\{[a-z]+\}/g,
          template.startsWith('/v1/notifications') ? request.id : 'x',
        );
        const body = bodies[`${method.toUpperCase()} ${template}`];
        for (const cookie of cookies) {
          const response = await fetch(`${broker.baseUrl}${path}`, {
            method: method.toUpperCase(),
            headers: {
              cookie,
              origin: broker.baseUrl,
              ...(body !== undefined && { 'content-type': 'application/json' }),
            },
            ...(body !== undefined && { body: JSON.stringify(body) }),
          });
          assert.equal(response.status, 401, `${method.toUpperCase()} ${path} with ${cookie.split('=')[0]}`);
          assert.deepEqual(await response.json(), { error: 'unauthorized' });
          tried++;
        }
      }
    }
    assert.ok(tried >= 50 * cookies.length, `${tried} requests tried`);

    const after = (await (await broker.request('GET', `/v1/notifications/${request.id}`)).json()) as {
      status: string;
      answer?: unknown;
    };
    assert.deepEqual([after.status, after.answer], ['active', undefined], 'not answered');
    assert.deepEqual(await (await broker.request('GET', '/v1/providers')).json(), [], 'no provider');
    const settings = (await (await broker.request('GET', '/v1/settings')).json()) as {
      doNotDisturb: boolean;
    };
    assert.equal(settings.doNotDisturb, false, 'no setting changed');
    assert.equal((await asPage(broker, secret, 'GET', '/v1/web/session')).status, 200, 'still signed in');
  });
});
