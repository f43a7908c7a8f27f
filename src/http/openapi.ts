import { readArcSchema } from '../broker/event-service.js';
import { VERSION } from '../version.js';
import type { RouteEntry } from './route-entry.js';
import { ERROR, type JsonSchema, type RouteSchema } from './schema-kit.js';

export const OPENAPI_SCHEMA: RouteSchema = {
  summary: 'This document: OpenAPI 3.1, generated from the route declarations',
  response: {
    200: { type: 'object', required: ['openapi'], properties: { openapi: { const: '3.1.0' } } },
    401: ERROR,
  },
};

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large (no body)',
  429: 'Too Many Requests',
};

/** One OpenAPI 3.1 document for every route of the table (docs/openapi.json is this, checked in). */
export function buildOpenApi(
  routes: readonly Pick<RouteEntry, 'method' | 'url' | 'auth' | 'credentials' | 'schema'>[],
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const { schema } = route;
    const parameters = [
      ...Object.keys(propertiesOf(schema.params)).map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...Object.entries(propertiesOf(schema.querystring)).map(([name, value]) => ({
        name,
        in: 'query',
        required: false,
        schema: value,
      })),
    ];
    const responses: Record<string, unknown> = {};
    // Every route behind the token can answer 401, whether or not its declaration says so.
    const declared = route.auth ? { 401: ERROR, ...schema.response } : schema.response;
    for (const [status, body] of Object.entries(declared)) {
      responses[status] = {
        description: REASONS[Number(status)] ?? 'Response',
        ...(body !== null && { content: { 'application/json': { schema: body } } }),
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      summary: schema.summary,
      ...(route.auth ? {} : { security: [] }),
      ...(route.auth && route.credentials === 'token' && { security: [{ bearer: [] }] }),
      ...(route.auth && route.credentials === 'session' && { security: [{ session: [] }] }),
      ...(parameters.length > 0 && { parameters }),
      ...(schema.body && {
        requestBody: { required: true, content: { 'application/json': { schema: schema.body } } },
      }),
      responses,
    };
  }
  // The dialect and id belong to the standalone file, not to a schema embedded in components.
  const arc = Object.fromEntries(
    Object.entries(readArcSchema() as JsonSchema).filter(([name]) => name !== '$schema' && name !== '$id'),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Notify broker API',
      version: VERSION,
      description:
        "The local Notify broker on http://127.0.0.1:{port}. Every /v1 route needs the bearer token (Authorization: Bearer), or the web page's session (Authorization: Session <secret>, the secret GET /login hands the page in its address's fragment). Cookies are never accepted.",
    },
    servers: [{ url: 'http://127.0.0.1:47821' }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: {
          type: 'http',
          scheme: 'Session',
          description: "Authorization: Session <secret>: the web page's session (docs/web-security.md)",
        },
      },
      schemas: { ArcEnvelope: arc },
    },
    paths,
  };
}

export function openApiHandler(routes: () => readonly RouteEntry[]) {
  let document: JsonSchema | undefined;
  return async () => (document ??= buildOpenApi(routes()));
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
}
