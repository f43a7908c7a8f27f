import type { FastifyInstance } from 'fastify';

/** The text of a JSON answer: the value's JSON and a newline. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value)}\n`;

/**
 * Every JSON answer ends with a newline, so `curl` output does not run into the shell prompt. The
 * newline is added by the reply serializer, which makes the text of every object or array a handler
 * sends, rather than by an onSend hook: a hook runs on every answer (pages and assets too) and costs
 * each one a pass through fastify's hook runner. Error answers are sent as text already (sendError),
 * since fastify's not-found and router-refusal contexts do not take the instance's reply serializer.
 */
export function endJsonWithNewline(app: FastifyInstance): void {
  app.setReplySerializer(jsonText);
}
