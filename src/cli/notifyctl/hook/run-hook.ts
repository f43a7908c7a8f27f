import { ForeignListenerError } from '../../../client/errors.js';
import { sendRequest, socketOf } from '../../../client/transport.js';
import {
  HOOK_SENDERS,
  MAX_CWD,
  MAX_ID,
  MAX_PROJECT,
  sessionKey,
  toArcEnvelope,
} from '../../../domain/hooks/arc-event.js';
import { readClaudePayload } from '../../../domain/hooks/claude.js';
import { readCodexNotifyArgument, readCodexPayload } from '../../../domain/hooks/codex.js';
import type { HookDecision, HookTool } from '../../../domain/hooks/decision.js';
import { readGeminiPayload } from '../../../domain/hooks/gemini.js';
import { headlessAnswerWait, isHeadless } from '../../../domain/hooks/headless.js';
import { isAnsweringTool, readPermissionQuestion } from '../../../domain/hooks/permission-request.js';
import { askPermission } from './ask-permission.js';
import { brokerConnection } from './broker-connection.js';
import type { HookOptions } from './hook-options.js';
import { logHookLine } from './hook-log.js';
import { endEarlierOutcomes } from './end-earlier-outcomes.js';
import { projectName, projectRoot } from '../../../workspace/project-name.js';
import { readStdinPayload } from './read-payload.js';
import { originFromEnv } from '../../../client/origin-from-env.js';

/**
 * A broker that accepts the connection but does not answer must not hold the agent; one that is not
 * running refuses at once. Long enough for a broker under load to commit.
 */
const HTTP_TIMEOUT_MS = 500;
/** How long the hook reads stdin in all before it goes on with what it has. */
const STDIN_DEADLINE_MS = 1000;

const READERS: Readonly<Record<HookTool, (payload: unknown) => HookDecision>> = {
  claude: readClaudePayload,
  codex: readCodexPayload,
  gemini: readGeminiPayload,
};

/**
 * `notifyctl hook <tool>`: read the tool's hook payload, send the ARC event it means to the broker,
 * leave one log line. Never throws, never writes to stderr: whatever happens the agent sees a hook
 * that exits 0. The one thing it may print is returned: a permission answer the person gave
 * (docs/agents.md "Permission answers"); everything else has nothing to say.
 */
export async function runHook(
  tool: HookTool,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: HookOptions = {},
): Promise<string | undefined> {
  const started = Date.now();
  let decision: HookDecision | undefined;
  try {
    const payload = await readPayload(tool, args);
    decision = payload === undefined ? undefined : payload.read(payload.value);
    if (decision === undefined || payload === undefined) {
      logHookLine('WARN', `hook ${tool}: payload is not a JSON object; ignored`, env);
      return undefined;
    }
    const where = `hook ${tool} ${decision.event}`;
    if (decision.todo.action === 'ignore') {
      logHookLine('INFO', `${where}: nothing to do`, env);
      return undefined;
    }
    if (decision.session === undefined) {
      logHookLine('WARN', `${where}: payload names no session; ignored`, env);
      return undefined;
    }
    const asks = decision.event === 'PermissionRequest' && isAnsweringTool(tool);
    let wait = asks ? options.answerWaitSeconds : undefined;
    const headless = asks && isHeadless(tool, env);
    if (headless) {
      // Nobody sits at a headless run's terminal, and the run must not hang on a person: it decides
      // alone, unless whoever started it said how long it may wait for an answer from Notify.
      const limit = headlessAnswerWait(env);
      wait = wait === undefined || limit === undefined ? undefined : Math.min(wait, limit);
      if (wait === undefined) {
        logHookLine('INFO', `${where}: headless run, nobody to ask; nothing sent, the tool decides`, env);
        return undefined;
      }
    }
    const project = projectName(decision.cwd);
    const digest = await digestOfLongSession(decision.session);
    if (decision.todo.action === 'start') {
      const root = projectRoot(decision.cwd);
      if (project === undefined || root === undefined) {
        logHookLine('INFO', `${where}: no project folder; nothing to end`, env);
        return undefined;
      }
      const outcome = await endEarlierOutcomes({
        agent: HOOK_SENDERS[tool].id,
        key: sessionKey(tool, decision.session, () => digest),
        project,
        root,
        env,
      }).catch((error: Error) => ({ failed: brokerFailure(error, env) }));
      if ('failed' in outcome) {
        logHookLine('WARN', `${where}: end earlier outcomes -> ${outcome.failed}`, env);
      } else {
        logHookLine('INFO', `${where}: end earlier outcomes of the project -> ${outcome.ended} ended`, env);
      }
      return undefined;
    }
    const origin = originFromEnv(env, decision.cwd);
    if (wait !== undefined && asks) {
      return await askPermission({
        tool,
        question: readPermissionQuestion(tool, payload.value),
        identity: {
          key: sessionKey(tool, decision.session, () => digest),
          agent: HOOK_SENDERS[tool].id,
          agentInstance: decision.session.length <= MAX_ID ? decision.session : digest,
          ...(project !== undefined && project.length <= MAX_PROJECT && { project }),
          ...(decision.cwd !== undefined && decision.cwd.length <= MAX_CWD && { cwd: decision.cwd }),
          ...(origin !== undefined && { origin }),
        },
        deadline: started + wait * 1000,
        headless,
        env,
      });
    }
    const envelope = toArcEnvelope({
      tool,
      decision: { ...decision, session: decision.session },
      ...(project !== undefined && { project }),
      ...(origin !== undefined && { origin }),
      eventId: eventId(),
      occurredAt: new Date(),
      longSessionDigest: () => digest,
    })!;
    const key = sessionKey(tool, decision.session, () => digest);
    const raisesPermission = decision.todo.action === 'raise' && decision.todo.kind === 'permission';
    const keepsOutcome = decision.todo.action === 'resolve' && decision.todo.keepOutcome === true;
    const active = raisesPermission || keepsOutcome ? await activeCondition(key, env) : undefined;
    if (
      raisesPermission &&
      active !== undefined &&
      Array.isArray(active.actions) &&
      active.answer === undefined
    ) {
      logHookLine(
        'INFO',
        `${where}: raise permission -> left as it is: the request with answers is waiting`,
        env,
      );
      return undefined;
    }
    if (keepsOutcome && active !== undefined && OUTCOMES.has(String(active.type))) {
      logHookLine('INFO', `${where}: resolve -> left as it is: the run's outcome stays`, env);
      return undefined;
    }
    const outcome = await post(envelope, env);
    const what = decision.todo.action === 'raise' ? `raise ${decision.todo.kind}` : 'resolve';
    logHookLine(outcome.ok ? 'INFO' : 'WARN', `${where}: ${what} -> ${outcome.detail}`, env);
  } catch (error) {
    const where = decision ? `hook ${tool} ${decision.event}` : `hook ${tool}`;
    logHookLine('ERROR', `${where}: ${(error as Error).name}`, env);
  }
  return undefined;
}

/**
 * Unique per event; the events are keyed, so the broker never uses the id for identity. Not
 * randomUUID: node:crypto is loaded only when a session id is too long for the key.
 */
function eventId(): string {
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Session ids of today's tools are UUIDs; a longer one than a key holds is keyed by its digest. */
async function digestOfLongSession(session: string): Promise<string> {
  if (session.length <= 80) return session;
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(session).digest('hex').slice(0, 40);
}

interface Payload {
  value: object;
  read: (payload: unknown) => HookDecision;
}

async function readPayload(tool: HookTool, args: readonly string[]): Promise<Payload | undefined> {
  const argument = args.at(-1);
  if (tool === 'codex' && argument !== undefined) {
    const parsed = parseObject(argument);
    return parsed === undefined ? undefined : { value: parsed, read: readCodexNotifyArgument };
  }
  const text = await readStdinPayload(STDIN_DEADLINE_MS);
  const parsed = text === undefined ? undefined : parseObject(text);
  return parsed === undefined ? undefined : { value: parsed, read: READERS[tool] };
}

function parseObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Conditions that tell how a run ended, rather than ask the person for something. */
const OUTCOMES = new Set(['completed', 'error']);

interface ActiveCondition {
  type?: unknown;
  actions?: unknown;
  answer?: unknown;
}

/**
 * The session's active condition, or undefined when none is open or the broker cannot say. Two events
 * read it: Claude Code's Notification `permission_prompt`, sent 6 s into a prompt whose request with
 * answers (a hook with `--answer-wait` raised it) is waiting, says less, and refreshing in place would
 * take the command and the buttons away; a SessionEnd that keeps outcomes leaves a finished or failed
 * run as it is. Anything unexpected reads as none, and the event goes on as always.
 */
async function activeCondition(key: string, env: NodeJS.ProcessEnv): Promise<ActiveCondition | undefined> {
  const connection = brokerConnection(env);
  const { port, token } = connection;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  try {
    const response = await sendRequest({
      method: 'GET',
      url: new URL(
        `http://127.0.0.1:${port}/v1/notifications?status=active&limit=1&key=${encodeURIComponent(key)}`,
      ),
      ...socketOf(connection),
      headers,
      timeoutMs: HTTP_TIMEOUT_MS,
    });
    if (response.status !== 200) return undefined;
    const [active] = JSON.parse(response.body) as ActiveCondition[];
    return typeof active === 'object' && active !== null ? active : undefined;
  } catch {
    return undefined;
  }
}

interface PostOutcome {
  ok: boolean;
  detail: string;
}

/**
 * POST /v1/events with the port (or socket) and token `notify` would use (NOTIFY_PORT /
 * NOTIFY_TOKEN / NOTIFY_SOCKET, else config.json). A 404 on a resolve only means nothing was open: that is fine, not a failure.
 */
async function post(envelope: object, env: NodeJS.ProcessEnv): Promise<PostOutcome> {
  const connection = brokerConnection(env);
  const { port, token } = connection;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  try {
    const response = await sendRequest({
      method: 'POST',
      url: new URL(`http://127.0.0.1:${port}/v1/events`),
      ...socketOf(connection),
      headers,
      body: JSON.stringify(envelope),
      timeoutMs: HTTP_TIMEOUT_MS,
    });
    const status = `${response.status} ${response.statusText}`.trim();
    const resolvedNothing =
      response.status === 404 && (envelope as { event_type: string }).event_type === 'request.resolved';
    if (resolvedNothing) return { ok: true, detail: `${status} (nothing was open)` };
    return { ok: response.status >= 200 && response.status <= 299, detail: status };
  } catch (error) {
    return { ok: false, detail: brokerFailure(error as Error, env) };
  }
}

/** What the log says when the broker could not be asked: never the token. */
function brokerFailure(error: Error, env: NodeJS.ProcessEnv): string {
  if (error instanceof ForeignListenerError) return `not sent: ${error.message}`;
  const connection = brokerConnection(env);
  const where =
    connection.socketPath === undefined ? `on port ${connection.port}` : `at ${connection.socketPath}`;
  return `broker unreachable ${where} (${error.name})`;
}
