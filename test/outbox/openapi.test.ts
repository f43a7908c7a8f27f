import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';

const CHECKED_IN = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

describe('GET /v1/openapi.json', () => {
  const broker = useBroker();

  it('serves the OpenAPI 3.1 document that is checked in as docs/openapi.json', async () => {
    const response = await broker.request('GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    const served = (await response.json()) as Record<string, unknown>;
    assert.equal(served['openapi'], '3.1.0');
    const checkedIn = JSON.parse(readFileSync(CHECKED_IN, 'utf8')) as unknown;
    assert.deepEqual(served, checkedIn, 'docs/openapi.json is stale: run `npm run openapi` and commit it');
  });

  it('declares a request body schema, response schemas and, behind the token, the 401 of every operation', async () => {
    const document = (await (await broker.request('GET', '/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: unknown; security?: unknown[]; responses: Record<string, { content?: unknown }> }
        >
      >;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    assert.ok(operations.length >= 29, `${operations.length} operations`);
    for (const { name, operation } of operations) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      assert.ok(success, `${name} has no success response`);
      if (success[0] !== '204') assert.ok(success[1].content, `${name} has no response schema`);
      // Every route behind the token says it can answer 401.
      if (operation.security === undefined) assert.ok(operation.responses['401'], `${name} lists no 401`);
    }
    for (const name of [
      'POST /v1/notifications',
      'PATCH /v1/notifications/{id}',
      'POST /v1/events',
      'POST /v1/providers',
      'POST /v1/routes',
    ]) {
      const [method, path] = name.split(' ') as [string, string];
      assert.ok(document.paths[path]![method.toLowerCase()]!.requestBody, `${name} declares no request body`);
    }
  });

  it('needs the bearer token like every /v1 route', async () => {
    const response = await fetch(`${broker.baseUrl}/v1/openapi.json`);
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: 'unauthorized' });
  });
});
