/** The two live streams: a sender's answers and status events, and a person's inbox changes. */
import type { FastifyInstance } from 'fastify';
import { hashSecret } from '../secrets.js';
import { authenticated } from './api-routes.js';
import type { RouteContext } from './context.js';
import { sendError } from './errors.js';
import { openEventStream } from './event-stream.js';
import { sessionToken, signedInUser } from './session.js';
import { MAX_STREAMS_PER_HOLDER } from './stream-quota.js';

/** A refused stream is worth trying again after a while: one of the open ones may have gone by then. */
const STREAM_RETRY_SECONDS = 30;

function lastEventId(header: unknown): number {
  return typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : 0;
}

export function registerEventRoutes(app: FastifyInstance, context: RouteContext): void {
  const { relay, hub } = context;

  app.get('/v1/events', async (request, reply) => {
    const installation = await authenticated(context, request, reply);
    if (!installation) return reply;
    const release = context.streamQuota.take(`installation:${installation.id}`);
    if (!release) {
      return sendError(
        reply,
        'rate_limited',
        `This installation has ${MAX_STREAMS_PER_HOLDER} event streams open already; close one before opening another.`,
        STREAM_RETRY_SECONDS,
      );
    }
    const stream = openEventStream(context, request, reply);
    stream.onEnd(release);
    let sentUpTo = lastEventId(request.headers['last-event-id']);
    // A live event is only a nudge: the stream reads what follows its last id from the store, so events
    // committed by another relay process reach it in order, each once, whichever nudge came first.
    let reading: Promise<void> | undefined;
    let readAgain = false;
    const catchUp = async (): Promise<void> => {
      do {
        readAgain = false;
        for (;;) {
          const batch = await relay.eventsAfter(installation.id, sentUpTo);
          for (const event of batch) {
            sentUpTo = event.id;
            stream.send({ id: event.id, type: event.type, data: event.data });
          }
          if (batch.length < 1000) break;
        }
      } while (readAgain);
    };
    const nudge = (): void => {
      if (reading) {
        readAgain = true;
        return;
      }
      reading = catchUp()
        .catch(() => stream.end())
        .finally(() => (reading = undefined));
    };
    stream.onEnd(hub.onEvent(installation.id, nudge));
    stream.onEnd(hub.onRevoked(installation.id, () => stream.end()));
    nudge();
    await reading;
    return reply;
  });

  app.get('/v1/inbox/stream', async (request, reply) => {
    const user = await signedInUser(context, request);
    if (!user) return sendError(reply, 'invalid_auth', 'Sign in first.');
    const release = context.streamQuota.take(`session:${hashSecret(sessionToken(request)!)}`);
    if (!release) {
      return sendError(
        reply,
        'rate_limited',
        `This session has ${MAX_STREAMS_PER_HOLDER} inboxes open already; close a tab or window before opening another.`,
        STREAM_RETRY_SECONDS,
      );
    }
    const stream = openEventStream(context, request, reply);
    stream.onEnd(release);
    // Each change waits for the session check of the one before it: they go out in the order they came.
    let previous = Promise.resolve();
    const inTurn = (work: (signedIn: boolean) => void): void => {
      previous = previous
        .then(async () => work((await signedInUser(context, request)) !== undefined))
        .catch(() => stream.end());
    };
    // A session revoked elsewhere ends its open inbox at once, not at the next change.
    stream.onEnd(
      hub.onSessionsEnded(user.id, () =>
        inTurn((signedIn) => {
          if (!signedIn) stream.end();
        }),
      ),
    );
    stream.onEnd(
      hub.onInbox(user.id, (change) =>
        inTurn((signedIn) => {
          // Signed out (in another tab) or expired: the stream stops before it shows anything more.
          if (!signedIn) return stream.end();
          if (change.kind === 'changed') stream.send({ type: 'changed', data: JSON.stringify(change.item) });
          else
            stream.send({
              type: 'removed',
              data: JSON.stringify({ installation_id: change.installationId }),
            });
        }),
      ),
    );
    return reply;
  });
}
