import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NotificationService } from '../broker/notification-service.js';
import { toDto } from '../domain/notification.js';
import { agentOf } from './agent-auth.js';
import { PRIORITIES } from '../domain/priority.js';
import { SURFACES } from '../domain/answers.js';
import { MAX_SNOOZE_MINUTES } from '../domain/snooze.js';
import { FOCUS_RESULT, ORIGIN } from './origin-schema.js';
import {
  arrayOf,
  closedObject,
  ERROR,
  ID_PARAMS,
  object,
  str,
  type JsonSchema,
  type RouteSchema,
} from './schema-kit.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type ListRequest = FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>;

const TYPE_ID = str({ pattern: '^[a-z][a-z0-9_]{0,63}$' });
const PRIORITY: JsonSchema = { enum: [...PRIORITIES] };
const STATUS: JsonSchema = { enum: ['active', 'dismissed', 'resolved'] };
const ACTIONS: JsonSchema = {
  ...arrayOf(closedObject({ id: TYPE_ID, label: str({ minLength: 1, maxLength: 40 }) }, ['id', 'label'])),
  minItems: 1,
  maxItems: 3,
  description: 'the choices offered to the person (an extension of the spec); ids distinct',
};
const ANSWER: JsonSchema = object(
  {
    action: TYPE_ID,
    surface: { enum: [...SURFACES] },
    answeredAt: str({ format: 'date-time' }),
  },
  ['action', 'surface', 'answeredAt'],
);

/** The spec's NotificationDto. */
export const NOTIFICATION: JsonSchema = object(
  {
    id: str(),
    key: str({ minLength: 1, maxLength: 100 }),
    agent: str({ minLength: 1, maxLength: 100 }),
    agentInstance: str({ minLength: 1, maxLength: 100 }),
    project: str({ minLength: 1, maxLength: 200 }),
    type: TYPE_ID,
    priority: PRIORITY,
    title: str({ minLength: 1, maxLength: 200 }),
    message: str({ minLength: 1, maxLength: 4000 }),
    cwd: str({ minLength: 1, maxLength: 1024 }),
    pid: { type: 'integer', minimum: 0 },
    status: STATUS,
    revision: {
      type: 'integer',
      minimum: 1,
      description:
        '1 at creation, one more with every change of what the person sees or answers; an answer names it',
    },
    createdAt: str({ format: 'date-time' }),
    updatedAt: str({ format: 'date-time' }),
    resolvedAt: str({ format: 'date-time' }),
    metadata: { type: ['object', 'null'] },
    actions: ACTIONS,
    origin: ORIGIN,
    answer: { ...ANSWER, description: "the person's answer, which resolved the notification" },
    snoozedUntil: str({
      format: 'date-time',
      description: 'snoozed: silent until then, when it alerts again if still active (an extension)',
    }),
    raisedBy: str({
      description:
        'the name of the agent token it was raised with (an extension; absent for the owner token)',
    }),
  },
  [
    'id',
    'agent',
    'type',
    'priority',
    'title',
    'message',
    'status',
    'revision',
    'createdAt',
    'updatedAt',
    'metadata',
  ],
);

const ONE = { 200: NOTIFICATION, 400: ERROR, 401: ERROR, 404: ERROR };

export const NOTIFICATION_SCHEMAS = {
  create: {
    summary: 'Create a notification, or update in place when its key matches an active one',
    body: closedObject(
      {
        title: str({ minLength: 1, maxLength: 200 }),
        message: str({ minLength: 1, maxLength: 4000 }),
        type: TYPE_ID,
        priority: PRIORITY,
        agent: str({ minLength: 1, maxLength: 100 }),
        agentInstance: str({ minLength: 1, maxLength: 100 }),
        project: str({ minLength: 1, maxLength: 200 }),
        key: str({ minLength: 1, maxLength: 100 }),
        cwd: str({ minLength: 1, maxLength: 1024 }),
        pid: { type: 'integer', minimum: 0 },
        metadata: { type: 'object', description: 'serialized size at most 8192 bytes' },
        actions: ACTIONS,
        origin: ORIGIN,
      },
      ['title', 'message'],
    ),
    response: { 201: NOTIFICATION, 400: ERROR, 401: ERROR, 403: ERROR, 413: null, 429: ERROR },
  },
  list: {
    summary: 'Notifications, newest first',
    querystring: object({
      unresolved: { type: 'boolean' },
      type: TYPE_ID,
      status: STATUS,
      project: str(),
      agent: str(),
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
      q: str({
        maxLength: 200,
        description:
          'search: each of its words (at most 10) appears in the title, message, agent or project; ASCII letters match either case',
      }),
      page: {
        const: 1,
        description:
          'cursor paging: the first page; when more notifications match, the X-Next-Cursor response header holds the cursor of the next page',
      },
      before: str({
        description:
          'cursor paging: the page after the one whose X-Next-Cursor header this is (opaque); no X-Next-Cursor on the last page',
      }),
    }),
    response: { 200: arrayOf(NOTIFICATION), 400: ERROR, 401: ERROR },
  },
  get: { summary: 'One notification', params: ID_PARAMS, response: ONE },
  changeStatus: {
    summary: 'Dismiss, resolve or reopen',
    params: ID_PARAMS,
    body: closedObject({ status: STATUS }, ['status']),
    response: ONE,
  },
  dismiss: { summary: 'Dismiss', params: ID_PARAMS, response: { ...ONE, 429: ERROR } },
  snooze: {
    summary: 'Snooze: close its toast and keep it quiet for N minutes, then alert again if still active',
    params: ID_PARAMS,
    body: closedObject({ minutes: { type: 'integer', minimum: 1, maximum: MAX_SNOOZE_MINUTES } }, [
      'minutes',
    ]),
    response: { ...ONE, 409: ERROR, 429: ERROR },
  },
  focus: {
    summary:
      'Take the person to where the agent runs (its origin): tmux pane, kitty window, X11 window, ...; 409 says why not',
    params: ID_PARAMS,
    response: { 200: FOCUS_RESULT, 401: ERROR, 404: ERROR, 409: ERROR, 429: ERROR },
  },
} satisfies Record<string, RouteSchema>;

/** POST /v1/notifications, for fastify's handler and the fast path (fast-create.ts) alike. */
export const createNotification =
  (service: NotificationService) =>
  async (body: unknown, raisedBy?: string): Promise<{ status: number; value: unknown }> => ({
    status: 201,
    value: toDto((await service.create(body, raisedBy)).record),
  });

/** Handlers of /v1/notifications; each one translates HTTP to a service call and back. */
export function notificationHandlers(service: NotificationService) {
  const createRoute = createNotification(service);
  return {
    create: async (request: FastifyRequest, reply: FastifyReply) => {
      const { status, value } = await createRoute(request.body, agentOf(request));
      return reply.code(status).send(value);
    },
    list: async (request: ListRequest, reply: FastifyReply) => {
      const { records, nextCursor } = service.listPage(request.query, agentOf(request));
      if (nextCursor !== undefined) reply.header('x-next-cursor', nextCursor);
      return records.map(toDto);
    },
    get: async (request: IdRequest) => toDto(service.get(request.params.id)),
    changeStatus: async (request: IdRequest) =>
      toDto(await service.changeStatus(request.params.id, request.body)),
    dismiss: async (request: IdRequest) => toDto(await service.dismiss(request.params.id)),
    snooze: async (request: IdRequest) => toDto(await service.snooze(request.params.id, request.body)),
  };
}
