import { sep } from 'node:path';
import { sendRequest, socketOf } from '../../../client/transport.js';
import { brokerConnection } from './broker-connection.js';

/** Per request: a broker that does not answer must not hold the session's start. */
const HTTP_TIMEOUT_MS = 500;
/** Conditions that tell how a run ended, rather than ask the person for something. */
const OUTCOMES = new Set(['completed', 'error']);

export interface EarlierOutcomes {
  /** The tool's sender id (`claude-code`, `codex`, `gemini-cli`). */
  agent: string;
  /** The starting session's own key: what it shows is its own, never an earlier session's. */
  key: string;
  /** The project's folder name, as the broker lists it. */
  project: string;
  /** The project's root folder: only outcomes whose `cwd` lies inside it are the same project's. */
  root: string;
  env: NodeJS.ProcessEnv;
}

export type EndedOutcomes = { ended: number } | { failed: string };

/**
 * A session starts (docs/agents.md "Why these events mean the person is back"): the outcomes
 * (finished, failed) that earlier sessions of the same tool left in the same project end. A headless
 * run's outcome stays after its end so that the person sees it; the project's next session is the
 * person, or the next scripted run, being back at it. Each is resolved by its id, so a condition an
 * earlier session raises meanwhile (a permission) is never touched. Two projects of the same folder
 * name are told apart by the `cwd` the outcome was raised from.
 */
export async function endEarlierOutcomes(input: EarlierOutcomes): Promise<EndedOutcomes> {
  const query = new URLSearchParams({
    status: 'active',
    agent: input.agent,
    project: input.project,
    limit: '500',
  });
  const listed = await call('GET', `/v1/notifications?${query}`, undefined, input.env);
  if (listed.status !== 200) return { failed: `${listed.status} ${listed.statusText}`.trim() };
  const earlier = (JSON.parse(listed.body) as Listed[]).filter(
    (each) =>
      each.key !== input.key &&
      OUTCOMES.has(String(each.type)) &&
      typeof each.cwd === 'string' &&
      (each.cwd === input.root || each.cwd.startsWith(input.root + sep)),
  );
  let ended = 0;
  for (const outcome of earlier) {
    const response = await call(
      'PATCH',
      `/v1/notifications/${encodeURIComponent(String(outcome.id))}`,
      JSON.stringify({ status: 'resolved' }),
      input.env,
    );
    if (response.status === 200) ended += 1;
  }
  return { ended };
}

interface Listed {
  id?: unknown;
  key?: unknown;
  type?: unknown;
  cwd?: unknown;
}

function call(method: 'GET' | 'PATCH', path: string, body: string | undefined, env: NodeJS.ProcessEnv) {
  const connection = brokerConnection(env);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (connection.token !== undefined) headers['authorization'] = `Bearer ${connection.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return sendRequest({
    method,
    url: new URL(`http://127.0.0.1:${connection.port}${path}`),
    ...socketOf(connection),
    headers,
    ...(body !== undefined && { body }),
    timeoutMs: HTTP_TIMEOUT_MS,
  });
}
