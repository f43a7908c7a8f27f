import { resolvePaths } from '../../../config/paths.js';
import { ForeignListenerError } from '../../../client/errors.js';
import { sendRequest } from '../../../client/transport.js';
import { toArcEnvelope } from '../../../domain/hooks/arc-event.js';
import { readClaudePayload } from '../../../domain/hooks/claude.js';
import { readCodexNotifyArgument, readCodexPayload } from '../../../domain/hooks/codex.js';
import type { HookDecision, HookTool } from '../../../domain/hooks/decision.js';
import { readGeminiPayload } from '../../../domain/hooks/gemini.js';
import { isPort, readClientConfig } from '../../notify/client-config.js';
import { logHookLine } from './hook-log.js';
import { projectName } from './project-name.js';
import { readStdinPayload } from './read-payload.js';

/**
 * A broker that accepts the connection but does not answer must not hold the agent; one that is not
 * running refuses at once. Long enough for a broker under load to commit.
 */
const HTTP_TIMEOUT_MS = 500;
/** How long the hook reads stdin in all before it goes on with what it has. */
const STDIN_DEADLINE_MS = 1000;
const DEFAULT_PORT = 47821;

const READERS: Readonly<Record<HookTool, (payload: unknown) => HookDecision>> = {
  claude: readClaudePayload,
  codex: readCodexPayload,
  gemini: readGeminiPayload,
};

/**
 * `notifyctl hook <tool>`: read the tool's hook payload, send the ARC event it means to the broker,
 * leave one log line. Never throws, never writes to stdout or stderr: whatever happens the agent sees
 * a hook that exits 0 with nothing to say (docs/agents.md).
 */
export async function runHook(
  tool: HookTool,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  let decision: HookDecision | undefined;
  try {
    decision = await readDecision(tool, args);
    if (decision === undefined)
      return logHookLine('WARN', `hook ${tool}: payload is not a JSON object; ignored`, env);
    const where = `hook ${tool} ${decision.event}`;
    if (decision.todo.action === 'ignore') return logHookLine('INFO', `${where}: nothing to do`, env);
    if (decision.session === undefined)
      return logHookLine('WARN', `${where}: payload names no session; ignored`, env);
    const project = projectName(decision.cwd);
    const digest = await digestOfLongSession(decision.session);
    const envelope = toArcEnvelope({
      tool,
      decision: { ...decision, session: decision.session },
      ...(project !== undefined && { project }),
      eventId: eventId(),
      occurredAt: new Date(),
      longSessionDigest: () => digest,
    })!;
    const outcome = await post(envelope, env);
    const what = decision.todo.action === 'raise' ? `raise ${decision.todo.kind}` : 'resolve';
    logHookLine(outcome.ok ? 'INFO' : 'WARN', `${where}: ${what} -> ${outcome.detail}`, env);
  } catch (error) {
    const where = decision ? `hook ${tool} ${decision.event}` : `hook ${tool}`;
    logHookLine('ERROR', `${where}: ${(error as Error).name}`, env);
  }
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

async function readDecision(tool: HookTool, args: readonly string[]): Promise<HookDecision | undefined> {
  const argument = args.at(-1);
  if (tool === 'codex' && argument !== undefined) {
    const parsed = parseObject(argument);
    return parsed === undefined ? undefined : readCodexNotifyArgument(parsed);
  }
  const text = await readStdinPayload(STDIN_DEADLINE_MS);
  const parsed = text === undefined ? undefined : parseObject(text);
  return parsed === undefined ? undefined : READERS[tool](parsed);
}

function parseObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

interface PostOutcome {
  ok: boolean;
  detail: string;
}

/**
 * POST /v1/events with the port and token `notify` would use (NOTIFY_PORT / NOTIFY_TOKEN, else
 * config.json). A 404 on a resolve only means nothing was open: that is fine, not a failure.
 */
async function post(envelope: object, env: NodeJS.ProcessEnv): Promise<PostOutcome> {
  const { port, token } = connection(env);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  try {
    const response = await sendRequest({
      method: 'POST',
      url: new URL(`http://127.0.0.1:${port}/v1/events`),
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
    if (error instanceof ForeignListenerError) return { ok: false, detail: `not sent: ${error.message}` };
    return { ok: false, detail: `broker unreachable on port ${port} (${(error as Error).name})` };
  }
}

function connection(env: NodeJS.ProcessEnv): { port: number; token?: string } {
  const envPort = Number(env['NOTIFY_PORT']?.trim() || NaN);
  const envToken = env['NOTIFY_TOKEN']?.trim() || undefined;
  const read = isPort(envPort) && envToken ? undefined : readClientConfig(resolvePaths(env).configFile);
  const config = read?.state === 'found' ? read.config : {};
  const port = isPort(envPort) ? envPort : (config.port ?? DEFAULT_PORT);
  const token = envToken ?? config.authToken;
  return token === undefined ? { port } : { port, token };
}
