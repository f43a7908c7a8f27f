import type { RouteHandlerMethod } from 'fastify';
import type { RouteSchema } from './schema-kit.js';

/** One endpoint of the broker: its guards, its schemas and its handler. */
export interface RouteEntry {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  auth: boolean;
  /** Only this credential is accepted; unset: the bearer token or the web page's session. */
  credentials?: 'token' | 'session';
  rateLimited: boolean;
  /** What an agent token may do here (`any`, or `own`: only on a notification it raised); unset: nothing. */
  agent?: 'any' | 'own';
  /** The body is the raw bytes (not JSON), up to this size instead of maxRequestBodyBytes. */
  rawBodyLimit?: number;
  /** Request and response JSON Schemas: they document the API (GET /v1/openapi.json). */
  schema: RouteSchema;
  handler: RouteHandlerMethod;
}
