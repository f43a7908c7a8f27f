/** The People page's forms (docs/relay.md "People"): own password and sessions; people and invitations for the operator. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageFrame } from '../pages/html.js';
import { messagePage } from '../pages/account-pages.js';
import { confirmRemovalPage, peoplePage, type PeopleView } from '../pages/people-pages.js';
import type { User } from '../store.js';
import type { RouteContext } from './context.js';
import { originOf } from './security.js';
import { sessionToken } from './session.js';

/** What the page routes share with these: the page frame, the CSRF check, the signed-in person, the account rules. */
export interface PageTools {
  frame(request: FastifyRequest, reply: FastifyReply, user?: User): PageFrame;
  forged(request: FastifyRequest, reply: FastifyReply): boolean;
  person(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined>;
  html(reply: FastifyReply, status: number, text: string): FastifyReply;
  accountProblem(username: string, password: string, again: string): string | undefined;
}

type Form = Record<string, string>;
type IdRequest = FastifyRequest<{ Params: { id: string } }>;

function form(request: FastifyRequest): Form {
  const body = request.body;
  return typeof body === 'object' && body !== null ? (body as Form) : {};
}

/** A row number from a path, or undefined. */
function rowId(text: string): number | undefined {
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

export function registerPeopleRoutes(app: FastifyInstance, context: RouteContext, tools: PageTools): void {
  const { relay, people, limits } = context;

  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    status: number,
    extra: { message?: PeopleView['message']; inviteUrl?: string } = {},
  ): Promise<FastifyReply> {
    const view: PeopleView = {
      sessions: await people.sessions(user, sessionToken(request)!),
      ...(user.isOperator && {
        operator: {
          people: await relay.users(),
          invites: await people.openInvites(),
          ...(extra.inviteUrl !== undefined && { inviteUrl: extra.inviteUrl }),
        },
      }),
      ...(extra.message && { message: extra.message }),
    };
    return tools.html(reply, status, peoplePage(tools.frame(request, reply, user), view));
  }

  /** The signed-in person of a genuine form post, or undefined with the answer sent. */
  async function poster(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
    if (tools.forged(request, reply)) return undefined;
    return await tools.person(request, reply);
  }

  /** The operator of a genuine form post, or undefined with the answer sent (403 for anyone else). */
  async function operator(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
    const user = await poster(request, reply);
    if (!user || user.isOperator) return user;
    tools.html(
      reply,
      403,
      messagePage(tools.frame(request, reply, user), 'People', 'Only the operator manages people.'),
    );
    return undefined;
  }

  app.get('/people', async (request, reply) => {
    const user = await tools.person(request, reply);
    return user ? await show(request, reply, user, 200) : reply;
  });

  app.post('/people/password', async (request, reply) => {
    const user = await poster(request, reply);
    if (!user) return reply;
    const { current_password: current = '', password = '', password_again: again = '' } = form(request);
    const problem = tools.accountProblem(user.username, password, again);
    if (problem) return await show(request, reply, user, 400, { message: { kind: 'error', text: problem } });
    // Guessing the current password from a stolen session is guessing a password: the sign-in's limits apply.
    const admission = limits.signIn.admit(user.username, request.ip);
    if (!admission.allowed) {
      reply.header('retry-after', String(admission.retryAfterSeconds));
      const busy = admission.reason === 'busy';
      const text = busy
        ? 'The relay is checking other passwords right now. Try again in a moment. Nothing changed.'
        : `Too many wrong passwords. Try again in ${Math.ceil(admission.retryAfterSeconds / 60)} min. Nothing changed.`;
      return await show(request, reply, user, busy ? 503 : 429, { message: { kind: 'error', text } });
    }
    let changed = false;
    try {
      changed = await people.changePassword(user, sessionToken(request)!, current, password);
    } finally {
      if (changed) admission.attempt.succeeded();
      else admission.attempt.failed();
    }
    if (!changed) {
      return await show(request, reply, user, 400, {
        message: { kind: 'error', text: 'The current password is wrong. Nothing changed.' },
      });
    }
    return await show(request, reply, user, 200, {
      message: { kind: 'ok', text: 'Password changed. Your other sessions are signed out.' },
    });
  });

  app.post('/people/sessions/revoke-others', async (request, reply) => {
    const user = await poster(request, reply);
    if (!user) return reply;
    const ended = await people.revokeOtherSessions(user, sessionToken(request)!);
    return await show(request, reply, user, 200, {
      message: {
        kind: 'ok',
        text: `Signed out everywhere else (${ended} ${ended === 1 ? 'session' : 'sessions'}).`,
      },
    });
  });

  app.post('/people/sessions/:id/revoke', async (request: IdRequest, reply) => {
    const user = await poster(request, reply);
    if (!user) return reply;
    const id = rowId(request.params.id);
    const revoked = id !== undefined && (await people.revokeSession(user, id));
    return await show(request, reply, user, revoked ? 200 : 404, {
      message: revoked
        ? { kind: 'ok', text: 'That session is signed out.' }
        : { kind: 'error', text: 'No such session: it ended already.' },
    });
  });

  app.post('/people/invite', async (request, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const inviteUrl = `${originOf(request, context.publicUrl)}/join?token=${await relay.createInvite(user)}`;
    return await show(request, reply, user, 200, { inviteUrl });
  });

  app.post('/people/invites/:id/withdraw', async (request: IdRequest, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const id = rowId(request.params.id);
    const withdrawn = id !== undefined && (await people.withdrawInvite(id));
    return await show(request, reply, user, withdrawn ? 200 : 404, {
      message: withdrawn
        ? { kind: 'ok', text: 'Invitation withdrawn: its link no longer works.' }
        : { kind: 'error', text: 'No such invitation: it was used, withdrawn or has expired.' },
    });
  });

  app.post('/people/:id/remove', async (request: IdRequest, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const target = (await relay.users()).find((someone) => someone.id === request.params.id);
    if (!target || target.isOperator) {
      return await show(request, reply, user, target ? 400 : 404, {
        message: {
          kind: 'error',
          text: target ? 'The operator cannot be removed.' : 'No such person: removed already?',
        },
      });
    }
    if (form(request)['confirm'] !== 'yes') {
      return tools.html(reply, 200, confirmRemovalPage(tools.frame(request, reply, user), target));
    }
    const removal = await people.remove(target.id);
    return await show(request, reply, user, removal.result === 'removed' ? 200 : 404, {
      message:
        removal.result === 'removed'
          ? {
              kind: 'ok',
              text: `Removed ${target.username}: their sessions ended and their installations were revoked.`,
            }
          : { kind: 'error', text: 'No such person: removed already?' },
    });
  });
}
