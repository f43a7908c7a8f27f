import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PresentationReport } from '../presentation/presentation-status.js';
import { sendError } from './errors.js';

export interface PresentationDeps {
  /** Shows the sample toast; rejects with a ToastsOffError-named error when toasts are off. */
  showSample(): Promise<{ server: string; toastId: number }>;
  /** Whether toasts, the tray icon and sounds work now, and why not. */
  report(): PresentationReport;
  /** The active notifications whose type needs a person, by type. */
  waiting(): { waiting: number; byType: Record<string, number> };
}

const PART = {
  type: 'object',
  required: ['on', 'detail'],
  properties: {
    on: { type: 'boolean' },
    detail: { type: 'string', description: 'what it goes through when on, why not when off' },
  },
} as const;

/** Request and response shapes of /v1/presentation, for the route declarations and the API docs. */
export const PRESENTATION_SCHEMAS = {
  status: {
    response: {
      200: {
        type: 'object',
        required: ['toasts', 'tray', 'sounds'],
        properties: { toasts: PART, tray: PART, sounds: PART },
      },
    },
  },
  waiting: {
    response: {
      200: {
        type: 'object',
        required: ['waiting', 'byType'],
        properties: {
          waiting: { type: 'integer', description: 'active notifications whose type needs a person' },
          byType: {
            type: 'object',
            additionalProperties: { type: 'integer' },
            description: 'the same by type, most frequent first',
          },
        },
      },
    },
  },
  testToast: {
    response: {
      200: {
        type: 'object',
        required: ['shown', 'server', 'toastId'],
        properties: {
          shown: { const: true },
          server: { type: 'string', description: 'the notification server that took the toast' },
          toastId: { type: 'integer', description: "the server's id of the toast" },
        },
      },
      503: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string' } },
      },
    },
  },
} as const;

/** Handlers of /v1/presentation. */
export function presentationHandlers(deps: PresentationDeps) {
  return {
    status: async () => deps.report(),
    waiting: async () => deps.waiting(),
    testToast: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return { shown: true, ...(await deps.showSample()) };
      } catch (error) {
        if ((error as Error).name === 'ToastsOffError')
          return sendError(request, reply, 503, (error as Error).message);
        return sendError(
          request,
          reply,
          502,
          `the notification server refused the toast: ${(error as Error).message}`,
        );
      }
    },
  };
}
