/** A sender pairing request's states and the poll rules of docs/relay-protocol.md, free of I/O. */

import { characterCount } from '../../domain/text.js';

export type PairingState = 'pending' | 'approved' | 'rejected' | 'consumed';

export interface Pairing {
  id: string;
  secretHash: string;
  userCode: string;
  senderName: string;
  client: string | null;
  createdAt: number;
  expiresAt: number;
  intervalSeconds: number;
  lastPollAt: number | null;
  state: PairingState;
  endedAt: number | null;
  approvedBy: string | null;
}

export const PAIRING_LIFETIME_MS = 600_000;
export const POLL_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_STEP_SECONDS = 5;
export const MAX_INTERVAL_SECONDS = 60;
/** A poll that arrives a little early (timers, network jitter) is not punished. */
export const POLL_TOLERANCE_MS = 500;
/** Ended pairings keep answering their final state this long, then polls get 401. */
export const ENDED_PAIRING_RETENTION_MS = 3_600_000;

export type PollOutcome =
  | { status: 'pending' }
  | { status: 'slow_down'; interval: number }
  | { status: 'collect' }
  | { status: 'rejected' }
  | { status: 'expired' }
  | { status: 'consumed' };

export function isExpired(pairing: Pairing, now: number): boolean {
  return (pairing.state === 'pending' || pairing.state === 'approved') && now >= pairing.expiresAt;
}

/** Past its retention a pairing is as good as deleted, whether or not the purge has run yet. */
export function isForgotten(pairing: Pairing, now: number): boolean {
  const end =
    pairing.state === 'rejected' || pairing.state === 'consumed' ? pairing.endedAt! : pairing.expiresAt;
  return now >= end + ENDED_PAIRING_RETENTION_MS;
}

export function pollOutcome(pairing: Pairing, now: number): PollOutcome {
  if (pairing.state === 'consumed') return { status: 'consumed' };
  if (pairing.state === 'rejected') return { status: 'rejected' };
  if (isExpired(pairing, now)) return { status: 'expired' };
  const since = now - (pairing.lastPollAt ?? pairing.createdAt);
  if (since < pairing.intervalSeconds * 1000 - POLL_TOLERANCE_MS) {
    return {
      status: 'slow_down',
      interval: Math.min(MAX_INTERVAL_SECONDS, pairing.intervalSeconds + SLOW_DOWN_STEP_SECONDS),
    };
  }
  return pairing.state === 'approved' ? { status: 'collect' } : { status: 'pending' };
}

/** Whether a person may still approve or reject it. */
export function isOpen(pairing: Pairing, now: number): boolean {
  return pairing.state === 'pending' && now < pairing.expiresAt;
}

/** Text a person sees (sender names, clients): trimmed, 1-max characters, no control characters. */
export function cleanName(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || characterCount(text) > max) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(text)) return undefined;
  return text;
}
