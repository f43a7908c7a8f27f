/**
 * Answer links (docs/relay-protocol.md "Answer links"): a sender asks for the single-use capability a
 * phone push carries, to put it behind another app's buttons (ntfy's http actions). The link answers
 * like a push's, by `POST {url}` with the token, and never carries the installation's credential.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.js';
import { deliveringInstallation } from './api-routes.js';
import { sendError } from './errors.js';
import { originOf } from './security.js';

export const ANSWER_LINK_PATH = '/v1/notifications/:id/answer-link';

export function registerAnswerLinkRoutes(app: FastifyInstance, context: RouteContext): void {
  app.post<{ Params: { id: string } }>(ANSWER_LINK_PATH, async (request, reply) => {
    const installation = await deliveringInstallation(context, request, reply);
    if (!installation) return reply;
    const body = request.body;
    const revision =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)['revision']
        : undefined;
    if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1)
      return sendError(reply, 'invalid_request', 'revision must be an integer of 1 or more.');
    const link = await context.relay.answerLink(installation, request.params.id, revision);
    if (link === 'not_yet')
      return sendError(reply, 'not_found', 'The relay holds no such revision of this notification yet.');
    if (link === 'not_answerable')
      return sendError(
        reply,
        'conflict',
        'This notification cannot be answered in this revision: it changed, ended, was answered, has no actions, or is answered in the terminal only.',
      );
    return reply
      .code(200)
      .header('cache-control', 'no-store')
      .send({
        url: `${originOf(request, context.publicUrl)}/v1/push/notifications/${link.stored.inboxId}/answer`,
        token: link.token,
        lifecycle: link.stored.lifecycle,
        revision: link.stored.revision,
      });
  });
}
