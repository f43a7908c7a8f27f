/** The relay's pages: first-start setup, sign-in, invitations, pairing approval, installations, inbox. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret, newSecret, normalizeUserCode, sameSecret } from '../secrets.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../passwords.js';
import { isTooSimple, TOO_SIMPLE_MESSAGE } from '../weak-passwords.js';
import type { User } from '../store.js';
import { SESSION_LIFETIME_MS } from '../store.js';
import { messagePage, newAccountPage, signInPage } from '../pages/account-pages.js';
import type { PageFrame } from '../pages/html.js';
import {
  confirmPairingPage,
  confirmRevokePage,
  enterCodePage,
  inboxPage,
  installationsPage,
} from '../pages/pair-pages.js';
import { INBOX_ASSETS } from './assets.js';
import type { RouteContext } from './context.js';
import { registerPeopleRoutes } from './people-routes.js';
import { addCookie, CSRF_COOKIE, csrfToken, isGenuine, localPath, SESSION_COOKIE } from './security.js';
import { sessionToken, signedInUser } from './session.js';

type Form = Record<string, string>;

function form(request: FastifyRequest): Form {
  const body = request.body;
  return typeof body === 'object' && body !== null ? (body as Form) : {};
}

function html(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(text);
}

function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}

function accountProblem(username: string, password: string, again: string): string | undefined {
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(username))
    return 'A user name is 1-40 letters, digits, dots, underscores or hyphens.';
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    return `A password is ${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters long.`;
  }
  if (password !== again) return 'The two passwords differ.';
  if (isTooSimple(password, username)) return TOO_SIMPLE_MESSAGE;
  return undefined;
}

export function registerPageRoutes(app: FastifyInstance, context: RouteContext): void {
  const { relay, limits } = context;

  function frame(
    request: FastifyRequest,
    reply: FastifyReply,
    user?: User,
    assets?: PageFrame['assets'],
  ): PageFrame {
    return {
      relayName: relay.name,
      csrf: csrfToken(request, reply),
      ...(user && { user: { username: user.username, isOperator: user.isOperator } }),
      ...(assets && { assets }),
    };
  }

  /** A form post that did not come from our own page: 403, nothing changes. */
  function forged(request: FastifyRequest, reply: FastifyReply): boolean {
    if (isGenuine(request, form(request)['csrf'], context.publicUrl)) return false;
    html(
      reply,
      403,
      messagePage(
        frame(request, reply),
        'Form refused',
        'This form came from another site or has expired. Reload the page and try again.',
      ),
    );
    return true;
  }

  /** The signed-in person, or a redirect to the sign-in page that comes back here. */
  async function person(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
    const user = await signedInUser(context, request);
    if (!user) seeOther(reply, `/sign-in?next=${encodeURIComponent(request.url)}`);
    return user;
  }

  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    next: string,
  ): Promise<FastifyReply> {
    addCookie(reply, request, SESSION_COOKIE, await relay.startSession(user), SESSION_LIFETIME_MS / 1000);
    // A new CSRF token with the new session: one planted before sign-in is worth nothing after it.
    addCookie(reply, request, CSRF_COOKIE, newSecret('nrx_'), SESSION_LIFETIME_MS / 1000);
    return seeOther(reply, localPath(next));
  }

  app.get('/', async (request, reply) =>
    seeOther(reply, (await signedInUser(context, request)) ? '/inbox' : '/sign-in'),
  );

  app.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
    if (!(await relay.hasUsers())) {
      return html(
        reply,
        200,
        messagePage(
          frame(request, reply),
          'Not set up yet',
          'Open the one-time setup link that notify-relay printed when it started.',
        ),
      );
    }
    return html(reply, 200, signInPage(frame(request, reply), localPath(request.query.next), ''));
  });

  app.post('/sign-in', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const { username = '', password = '', next = '/inbox' } = form(request);
    const admission = limits.signIn.admit(username, request.ip);
    if (!admission.allowed) {
      reply.header('retry-after', String(admission.retryAfterSeconds));
      const minutes = Math.ceil(admission.retryAfterSeconds / 60);
      const why =
        admission.reason === 'busy'
          ? 'The relay is checking other sign-ins right now. Try again in a moment.'
          : `Too many failed sign-ins. Try again in ${minutes} min.`;
      return html(
        reply,
        admission.reason === 'busy' ? 503 : 429,
        signInPage(frame(request, reply), localPath(next), username, why),
      );
    }
    let user: User | undefined;
    try {
      user = await relay.checkPassword(username, password);
    } finally {
      if (user) admission.attempt.succeeded();
      else admission.attempt.failed();
    }
    if (!user) {
      return html(
        reply,
        401,
        signInPage(frame(request, reply), localPath(next), username, 'Wrong user name or password.'),
      );
    }
    return await signIn(request, reply, user, next);
  });

  app.post('/sign-out', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const token = sessionToken(request);
    if (token) await relay.endSession(token);
    addCookie(reply, request, SESSION_COOKIE, '', 0);
    return seeOther(reply, '/sign-in');
  });

  function setupTokenValid(token: unknown): boolean {
    return (
      typeof token === 'string' &&
      context.setupTokenHash !== undefined &&
      sameSecret(hashSecret(token), context.setupTokenHash)
    );
  }

  app.get<{ Querystring: { token?: string } }>('/setup', async (request, reply) => {
    if (!setupTokenValid(request.query.token) || (await relay.hasUsers())) {
      return html(
        reply,
        404,
        messagePage(
          frame(request, reply),
          'No setup here',
          'This setup link is not valid: the operator account exists already, or the relay restarted and printed a new link.',
        ),
      );
    }
    return html(reply, 200, newAccountPage(frame(request, reply), 'setup', request.query.token!, ''));
  });

  app.post('/setup', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const { token = '', username = '', password = '', password_again: again = '' } = form(request);
    if (!setupTokenValid(token) || (await relay.hasUsers())) {
      return html(
        reply,
        404,
        messagePage(frame(request, reply), 'No setup here', 'This setup link is not valid any more.'),
      );
    }
    const problem = accountProblem(username, password, again);
    if (problem)
      return html(reply, 400, newAccountPage(frame(request, reply), 'setup', token, username, problem));
    const user = await relay.createUser(username, password, true);
    if (!user) {
      return html(
        reply,
        409,
        messagePage(frame(request, reply), 'No setup here', 'The operator account exists already.'),
      );
    }
    context.setupTokenHash = undefined;
    return await signIn(request, reply, user, '/installations');
  });

  app.get<{ Querystring: { token?: string } }>('/join', async (request, reply) => {
    const token = request.query.token;
    if (typeof token !== 'string' || !(await relay.isLiveInvite(token))) {
      return html(
        reply,
        404,
        messagePage(
          frame(request, reply),
          'Invitation not valid',
          'This invitation was used already, has expired, or was mistyped. Ask the operator for a new one.',
        ),
      );
    }
    return html(reply, 200, newAccountPage(frame(request, reply), 'join', token, ''));
  });

  app.post('/join', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const { token = '', username = '', password = '', password_again: again = '' } = form(request);
    if (!(await relay.isLiveInvite(token))) {
      return html(
        reply,
        404,
        messagePage(
          frame(request, reply),
          'Invitation not valid',
          'This invitation was used already or has expired.',
        ),
      );
    }
    const problem = accountProblem(username, password, again);
    if (problem)
      return html(reply, 400, newAccountPage(frame(request, reply), 'join', token, username, problem));
    if (await relay.nameTaken(username)) {
      return html(
        reply,
        409,
        newAccountPage(frame(request, reply), 'join', token, username, 'This user name is taken.'),
      );
    }
    if (!(await relay.takeInvite(token))) {
      return html(
        reply,
        404,
        messagePage(frame(request, reply), 'Invitation not valid', 'This invitation was used already.'),
      );
    }
    const user = await relay.createUser(username, password, false);
    if (!user)
      return html(
        reply,
        409,
        messagePage(frame(request, reply), 'Invitation not valid', 'This user name is taken.'),
      );
    return await signIn(request, reply, user, '/inbox');
  });

  app.get<{ Querystring: { code?: string } }>('/pair', async (request, reply) => {
    const user = await person(request, reply);
    if (!user) return reply;
    const typed = typeof request.query.code === 'string' ? request.query.code : undefined;
    if (typed === undefined || typed.trim() === '')
      return html(reply, 200, enterCodePage(frame(request, reply, user), ''));
    const attempts = limits.codeAttempts.peek(user.id);
    if (!attempts.allowed) {
      reply.header('retry-after', String(attempts.retryAfterSeconds));
      return html(
        reply,
        429,
        enterCodePage(
          frame(request, reply, user),
          typed.slice(0, 20),
          `Too many wrong codes. Try again in ${Math.ceil(attempts.retryAfterSeconds / 60)} min.`,
        ),
      );
    }
    const code = normalizeUserCode(typed);
    const pairing = code === undefined ? undefined : await relay.openPairing(code);
    if (!pairing) {
      limits.codeAttempts.record(user.id);
      return html(
        reply,
        404,
        enterCodePage(
          frame(request, reply, user),
          typed.slice(0, 20),
          "No open pairing request has this code. Check it on the sender's terminal; a request expires after 10 minutes.",
        ),
      );
    }
    return html(reply, 200, confirmPairingPage(frame(request, reply, user), pairing, relay.clock()));
  });

  app.post('/pair', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const user = await person(request, reply);
    if (!user) return reply;
    const { pairing_id: pairingId = '', decision = '' } = form(request);
    if (decision !== 'approve' && decision !== 'reject') {
      return html(
        reply,
        400,
        messagePage(frame(request, reply, user), 'Pairing', 'Choose Approve or Reject.'),
      );
    }
    if (!(await relay.decide(pairingId, user, decision === 'approve'))) {
      return html(
        reply,
        409,
        messagePage(
          frame(request, reply, user),
          'Pairing',
          'This pairing request is no longer open: it expired or was decided already.',
          { href: '/pair', label: 'Enter another code' },
        ),
      );
    }
    return decision === 'approve'
      ? html(
          reply,
          200,
          messagePage(
            frame(request, reply, user),
            'Approved',
            'The sender is paired with your account; its terminal says so in a few seconds. Its notifications will appear in your inbox.',
            { href: '/inbox', label: 'Open the inbox' },
          ),
        )
      : html(
          reply,
          200,
          messagePage(frame(request, reply, user), 'Rejected', 'The sender was refused and gets no access.'),
        );
  });

  app.get('/installations', async (request, reply) => {
    const user = await person(request, reply);
    if (!user) return reply;
    return html(
      reply,
      200,
      installationsPage(frame(request, reply, user), await relay.installationsOf(user)),
    );
  });

  app.post<{ Params: { id: string } }>('/installations/:id/revoke', async (request, reply) => {
    if (forged(request, reply)) return reply;
    const user = await person(request, reply);
    if (!user) return reply;
    const installation = (await relay.installationsOf(user)).find(
      (candidate) => candidate.id === request.params.id,
    );
    if (installation !== undefined && form(request)['confirm'] !== 'yes') {
      return html(reply, 200, confirmRevokePage(frame(request, reply, user), installation));
    }
    const revoked = installation !== undefined && (await relay.revoke(user, request.params.id));
    return html(
      reply,
      revoked ? 200 : 404,
      installationsPage(
        frame(request, reply, user),
        await relay.installationsOf(user),
        revoked ? 'Revoked: its credential is refused from now on.' : 'No such installation.',
      ),
    );
  });

  app.get('/inbox', async (request, reply) => {
    const user = await person(request, reply);
    if (!user) return reply;
    return html(reply, 200, inboxPage(frame(request, reply, user, INBOX_ASSETS)));
  });

  registerPeopleRoutes(app, context, { frame, forged, person, html, accountProblem });
}
