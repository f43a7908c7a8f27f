import type { ConnectionCheck, ProviderKind } from './provider.js';
import type { ReasonCode } from './reason-codes.js';
import { describeReason } from './test-action.js';

/**
 * The answer of GET /v1/providers/{id}/connection, without its I/O: a provider's connection check in
 * one state and one sentence built from codes only, so it never repeats a secret or a service's reply.
 */

export type ConnectionState = 'connected' | 'revoked' | 'unreachable' | 'failing' | 'secrets_unreadable';

export interface ConnectionView {
  state: ConnectionState;
  summary: string;
  reason?: ReasonCode;
  status?: number;
  installation?: { id: string; name: string };
}

/** Checks are quick questions: the answer is back before `notify`'s 10-second broker time-out. */
export const CONNECTION_TIMEOUT_MS = 8_000;

export function connectionView(kind: ProviderKind, check: ConnectionCheck): ConnectionView {
  const { result } = check;
  const status = result.status === undefined ? {} : { status: result.status };
  if (result.outcome === 'delivered') {
    return {
      state: 'connected',
      ...status,
      summary: `${kind.title} accepts this machine's credential${check.installation === undefined ? '' : ` as "${check.installation.name}" (${check.installation.id})`}.`,
      ...(check.installation !== undefined && {
        installation: { id: check.installation.id, name: check.installation.name },
      }),
    };
  }
  const reason = result.reason;
  if (result.status === 401 || result.status === 403) {
    return {
      state: 'revoked',
      reason,
      ...status,
      summary: `${kind.title} refuses this machine's credential (HTTP ${result.status}): the installation was revoked or deleted there; pair again.`,
    };
  }
  if (result.status === undefined && reason !== 'unexpected_answer') {
    return {
      state: 'unreachable',
      reason,
      summary: `${kind.title} could not be reached: ${describeReason(reason)}.`,
    };
  }
  return {
    state: 'failing',
    reason,
    ...status,
    summary: `${kind.title} did not confirm the credential: ${describeReason(reason)}.`,
  };
}

export const SECRETS_UNREADABLE: ConnectionView = {
  state: 'secrets_unreadable',
  reason: 'provider_secrets_unreadable',
  summary: 'The credential could not be decrypted (unlock the OS keyring, or pair again).',
};
