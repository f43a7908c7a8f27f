import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from './openapi.js';
import { routeTable, type RouteDeps } from './route-table.js';

const CHECKED_IN = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

/**
 * docs/openapi.json is what a client author reads: it must be what the routes declare, built in process
 * from the route table as `npm run openapi` builds it (the handlers are never called).
 */
describe('docs/openapi.json', () => {
  it('is what the route declarations describe', () => {
    const noServices = {
      notifications: {},
      events: {},
      outbound: { providers: {}, routes: {}, outbox: {} },
      health: {},
    } as unknown as RouteDeps;
    const built = JSON.parse(JSON.stringify(buildOpenApi(routeTable(noServices)))) as unknown;
    const checkedIn = JSON.parse(readFileSync(CHECKED_IN, 'utf8')) as unknown;
    assert.deepEqual(built, checkedIn, 'docs/openapi.json is stale: run `npm run openapi` and commit it');
  });
});
