import type { Origin } from '../../../domain/origin.js';
import { BrokerUnreachableError, ForeignListenerError } from '../../../client/errors.js';
import { socketOf } from '../../../client/transport.js';
import { NotifyClient } from '../../../client/notify-client.js';
import type { NotificationDto } from '../../../client/api-types.js';
import { permissionDecision } from '../../../domain/hooks/permission-decision.js';
import type { AnsweringTool, PermissionQuestion } from '../../../domain/hooks/permission-request.js';
import { brokerConnection } from './broker-connection.js';
import { logHookLine } from './hook-log.js';
import { stopRequested } from './outlive-stop-signals.js';

/** As for every hook request: a silent broker must not hold the agent (run-hook.ts). */
const HTTP_TIMEOUT_MS = 500;
/** The broker's long-poll holds at most this long; the hook asks again until its own deadline. */
const MAX_POLL_SECONDS = 120;
/** A long-poll's answer may take this much longer than the wait it asked for. */
const POLL_SLACK_MS = 2000;

export interface PermissionAsk {
  tool: AnsweringTool;
  question: PermissionQuestion;
  /** The native create's other fields: key, agent, agentInstance, project, cwd. */
  identity: {
    key: string;
    agent: string;
    agentInstance: string;
    project?: string;
    cwd?: string;
    origin?: Origin;
  };
  /** When to stop waiting and leave the decision to the tool's own dialog (epoch ms). */
  deadline: number;
  /**
   * Nobody sits at the run's terminal (`claude -p`): at the deadline the tool decides alone, so the
   * request is resolved rather than left saying "Answer in the terminal."
   */
  headless?: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * Raises the permission request with its choices through the native API (ARC 0.1 events carry no
 * actions), on the session's key, so later events of the session resolve it as they resolve any
 * other condition; then waits for the person's answer. Returns the decision JSON for the tool's
 * stdout, or undefined: no answer by the deadline, a broker that is down or says anything unexpected,
 * a request resolved or dismissed without an answer, or a stop signal (the person answered in the
 * terminal; the request is then resolved on the way out so it closes everywhere).
 */
export async function askPermission(ask: PermissionAsk): Promise<string | undefined> {
  const where = `hook ${ask.tool} PermissionRequest`;
  const connection = brokerConnection(ask.env);
  const { port, token } = connection;
  const client = (timeoutMs: number) =>
    new NotifyClient({
      baseUrl: `http://127.0.0.1:${port}`,
      ...socketOf(connection),
      timeoutMs,
      ...(token !== undefined && { token }),
    });
  /** Logs one line; returns nothing to print, which is how every way out but an answer ends. */
  const log = (level: 'INFO' | 'WARN', text: string): undefined => {
    logHookLine(level, `${where}: ${text}`, ask.env);
    return undefined;
  };
  const failed = (error: unknown) =>
    failure(error, connection.socketPath === undefined ? `on port ${port}` : `at ${connection.socketPath}`);
  let stop: NodeJS.Signals | undefined;
  void stopRequested.then((signal) => (stop = signal));
  // Lets the line above see a signal that came while the payload was read.
  await Promise.resolve();
  if (stop !== undefined)
    return log('INFO', `${stop} before asking (answered in the terminal); nothing sent`);
  let created: NotificationDto;
  try {
    created = await client(HTTP_TIMEOUT_MS).create({
      ...ask.identity,
      ...notificationOf(ask.question),
      actions: ask.question.actions,
    });
  } catch (error) {
    return log('WARN', `ask -> ${failed(error)}`);
  }
  log('INFO', `ask -> notification ${created.id}, waiting for the answer`);
  const outcome = await Promise.race([
    waitForAnswer(created.id, ask.deadline, client),
    stopRequested.then((signal) => ({ stopped: signal }) as const),
  ]);
  const ifStillAsking = (change: () => Promise<unknown>) =>
    stillAsking(client(HTTP_TIMEOUT_MS), created).then(async (ours) => ours && (await change(), true));
  if ('stopped' in outcome || stop !== undefined) {
    const signal = 'stopped' in outcome ? outcome.stopped : stop!;
    const closed = await ifStillAsking(() => client(HTTP_TIMEOUT_MS).setStatus(created.id, 'resolved')).then(
      (done) => (done ? 'resolved it' : 'left it: it no longer asks what this hook asked'),
      (error: unknown) => `could not resolve it (${failed(error)})`,
    );
    return log('INFO', `${signal} while waiting (answered in the terminal); ${closed}`);
  }
  if ('failed' in outcome) return log('WARN', `waiting -> ${failed(outcome.failed)}`);
  const answered = outcome.notification;
  if (answered === undefined && ask.headless === true) {
    const closed = await ifStillAsking(() => client(HTTP_TIMEOUT_MS).setStatus(created.id, 'resolved')).then(
      (done) => (done ? 'resolved it' : 'it no longer asks what this hook asked'),
      (error: unknown) => `could not resolve it (${failed(error)})`,
    );
    return log('INFO', `no answer by the headless run's deadline; the tool decides; ${closed}`);
  }
  if (answered === undefined) {
    // The buttons would now answer nobody: the request stays, without them, for the terminal.
    const left = await ifStillAsking(() =>
      client(HTTP_TIMEOUT_MS).create({
        ...ask.identity,
        ...notificationOf(ask.question),
        message: `${ask.question.subject}${TERMINAL}`,
      }),
    ).then(
      (done) => (done ? 'the request stays without its buttons' : 'it no longer asks what this hook asked'),
      (error: unknown) => `could not take its buttons away (${failed(error)})`,
    );
    return log('INFO', `no answer by the hook's deadline; the tool's dialog decides; ${left}`);
  }
  if (answered.answer === undefined)
    return log('INFO', `${answered.status} without an answer; the tool's dialog decides`);
  // Another prompt of the session replaced this one in place: the person answered that one.
  if (!sameQuestion(answered, created))
    return log('INFO', "the answer was to another request of the session; the tool's dialog decides");
  const decision = permissionDecision(ask.tool, ask.question, answered.answer);
  const what = `answer ${answered.answer.action} from ${answered.answer.surface}`;
  if (decision === undefined) return log('WARN', `${what} offers no decision; the tool's dialog decides`);
  log('INFO', what);
  return JSON.stringify(decision);
}

/** Said once the hook no longer waits: only the tool's own dialog can answer now. */
const TERMINAL = '\n\nAnswer in the terminal.';

function notificationOf(question: PermissionQuestion) {
  return {
    title: question.title,
    message: question.message,
    type: 'permission_required',
    priority: 'high',
  } as const;
}

/**
 * The notification still shows what this hook asked. Another PermissionRequest of the same session
 * (parallel tool calls) refreshes the session's condition in place, same id: its answer, or its
 * closing, belongs to that hook, never to this one, since the person saw the other command. The broker
 * refuses an answer to a revision it left behind, so an answer here is to the revision it carries.
 */
function sameQuestion(notification: NotificationDto, asked: NotificationDto): boolean {
  return (
    notification.revision === asked.revision &&
    notification.title === asked.title &&
    notification.message === asked.message &&
    JSON.stringify(notification.actions) === JSON.stringify(asked.actions)
  );
}

async function stillAsking(client: NotifyClient, asked: NotificationDto): Promise<boolean> {
  const now = await client.get(asked.id);
  return now.status === 'active' && now.answer === undefined && sameQuestion(now, asked);
}

type WaitOutcome = { notification: NotificationDto | undefined } | { failed: unknown };

/** Long-polls until the notification is answered, resolved or dismissed, or until the deadline. */
async function waitForAnswer(
  id: string,
  deadline: number,
  client: (timeoutMs: number) => NotifyClient,
): Promise<WaitOutcome> {
  try {
    for (;;) {
      const seconds = Math.min(MAX_POLL_SECONDS, Math.floor((deadline - Date.now()) / 1000));
      if (seconds < 1) return { notification: undefined };
      const notification = await client(seconds * 1000 + POLL_SLACK_MS).awaitAnswer(id, seconds);
      if (notification.answer !== undefined || notification.status !== 'active') return { notification };
    }
  } catch (error) {
    return { failed: error };
  }
}

function failure(error: unknown, where: string): string {
  if (error instanceof ForeignListenerError) return `not sent: ${error.message}`;
  const name = (error as Error).name;
  if (error instanceof BrokerUnreachableError) return `broker unreachable ${where} (${name})`;
  return 'status' in (error as object) ? `${(error as { status: number }).status} (${name})` : name;
}
