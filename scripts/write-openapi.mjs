// Writes docs/openapi.json from the route declarations (run after `npm run build`; `npm run openapi`).
// The handlers are never called here, so the route table is built without services.
import { writeFileSync } from 'node:fs';
import { URL } from 'node:url';
import { routeTable } from '../dist/src/http/route-table.js';
import { buildOpenApi } from '../dist/src/http/openapi.js';

const noServices = {
  notifications: {},
  events: {},
  outbound: { providers: {}, routes: {}, outbox: {} },
  health: {},
};
const document = buildOpenApi(routeTable(noServices));
writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
