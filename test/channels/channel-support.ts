import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fixtureFile, HOOK } from '../hooks/support.js';
import type { BrokerProcess } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';

/** What the tests of the channels that answer share: a provider routed everything, a real hook, reads. */

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

export interface NotificationView {
  id: string;
  status: string;
  revision: number;
  answer?: { action: string; surface: string };
}

/** Creates an enabled provider of `kind` and an enabled route that sends it everything; its id. */
export async function addChannel(
  broker: BrokerProcess,
  kind: string,
  settings: Record<string, string>,
): Promise<string> {
  const created = await broker.request('POST', '/v1/providers', { kind, name: kind, settings });
  const body = (await created.json()) as { id: string; error?: string };
  assert.equal(created.status, 201, body.error);
  assert.equal((await broker.request('POST', `/v1/providers/${body.id}/enable`)).status, 200);
  const route = (await (await broker.request('POST', '/v1/routes', { providerId: body.id })).json()) as {
    id: string;
  };
  assert.equal((await broker.request('POST', `/v1/routes/${route.id}/enable`)).status, 200);
  return body.id;
}

/** Waits until the provider's listener says `listening` in the providers API. */
export function listening(broker: BrokerProcess, providerId: string): Promise<true> {
  return waitFor(async () => {
    const view = (await (await broker.request('GET', `/v1/providers/${providerId}`)).json()) as {
      listening?: { state: string };
    };
    return view.listening?.state === 'listening';
  }, 'the channel listening');
}

export async function notification(broker: BrokerProcess, id: string): Promise<NotificationView> {
  return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as NotificationView;
}

/** POST /v1/notifications; the created (or, with a key, updated) notification. */
export async function raise(
  broker: BrokerProcess,
  fields: Record<string, unknown>,
): Promise<NotificationView> {
  const response = await broker.request('POST', '/v1/notifications', { message: 'details', ...fields });
  assert.ok(response.status === 200 || response.status === 201, String(response.status));
  return (await response.json()) as NotificationView;
}

export interface RunningHook {
  finished: Promise<{ code: number | null; stdout: string }>;
}

/** A real Claude Code PermissionRequest hook, waiting for the person's answer. */
export function permissionHook(broker: BrokerProcess, session: string): RunningHook {
  const child = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=60'], {
    env: broker.home.env,
    stdio: 'pipe',
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stdin.end(JSON.stringify({ ...CLAUDE, session_id: session }));
  return { finished: new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout }))) };
}

export const ALLOW_DECISION = {
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
};

/** The outbox items of one notification. */
export async function deliveries(
  broker: BrokerProcess,
  notificationId: string,
): Promise<
  {
    operation: string;
    state: string;
    lastStatus: number | null;
    nextAttemptAt: string | null;
    updatedAt: string;
  }[]
> {
  return (await (await broker.request('GET', `/v1/outbox?notificationId=${notificationId}`)).json()) as never;
}
