import type { RouteService } from '../broker/route-service.js';
import { MAX_DELAY_SECONDS } from '../domain/delivery/route.js';
import { PRIORITIES } from '../domain/priority.js';
import {
  arrayOf,
  closedObject,
  ERROR,
  ID_PARAMS,
  nullable,
  object,
  str,
  type JsonSchema,
  type RouteSchema,
} from './schema-kit.js';
import { switchableResourceHandlers } from './switchable-resource-handlers.js';

const FILTERS: Record<string, JsonSchema> = {
  name: str({ minLength: 1, maxLength: 100 }),
  providerId: str(),
  minimumPriority: { enum: [...PRIORITIES] },
  typeId: nullable(str({ maxLength: 64 })),
  project: nullable(str({ maxLength: 200 })),
  agent: nullable(str({ maxLength: 100 })),
  includeMessage: { type: 'boolean', description: 'false: only the title leaves the machine' },
  delaySeconds: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_DELAY_SECONDS,
    description:
      'seconds a send waits before it goes (0, the default: at once); it is cancelled, unsent, when the notification is resolved, dismissed or answered meanwhile',
  },
  sendDuringQuietHours: {
    type: 'boolean',
    description:
      'true: sends during quiet hours too; false (default): a send below their priority waits for their end',
  },
};

const ROUTE: JsonSchema = object(
  {
    id: str(),
    ...FILTERS,
    enabled: { type: 'boolean' },
    createdAt: str({ format: 'date-time' }),
    updatedAt: str({ format: 'date-time' }),
  },
  [
    'id',
    'name',
    'providerId',
    'enabled',
    'minimumPriority',
    'typeId',
    'project',
    'agent',
    'includeMessage',
    'delaySeconds',
    'sendDuringQuietHours',
    'createdAt',
    'updatedAt',
  ],
);

const ONE = { 200: ROUTE, 400: ERROR, 401: ERROR, 404: ERROR };

export const ROUTE_SCHEMAS = {
  list: { summary: 'Delivery routes', response: { 200: arrayOf(ROUTE), 401: ERROR } },
  create: {
    summary: 'Create a route (disabled)',
    body: closedObject(
      { ...FILTERS, enabled: { type: 'boolean', description: 'ignored: a new route starts disabled' } },
      ['providerId'],
    ),
    response: { 201: ROUTE, 400: ERROR, 401: ERROR },
  },
  get: { summary: 'One route', params: ID_PARAMS, response: ONE },
  update: {
    summary: 'Change a route',
    params: ID_PARAMS,
    body: closedObject({ ...FILTERS, enabled: { type: 'boolean' } }),
    response: ONE,
  },
  remove: { summary: 'Delete a route', params: ID_PARAMS, response: { 204: null, 401: ERROR, 404: ERROR } },
  enable: { summary: 'Enable a route', params: ID_PARAMS, response: ONE },
  disable: { summary: 'Disable a route', params: ID_PARAMS, response: ONE },
} satisfies Record<string, RouteSchema>;

/** Handlers of /v1/routes (delivery routes, not HTTP ones). */
export function deliveryRouteHandlers(service: RouteService) {
  return switchableResourceHandlers(service);
}
