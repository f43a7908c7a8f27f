import assert from 'node:assert/strict';
import type {
  DeliveryOperation,
  DeliveryResult,
  ProviderKind,
  SettingValues,
} from '../../../src/delivery/provider.js';
import type { HttpReceiver } from './http-receiver.js';

/**
 * One rig per provider: its real local receiver, settings that point at it, and what that service's
 * public documentation says a delivery looks like. The conformance suite drives all of them alike.
 */

export type Failure = 'ok' | 'http500' | 'http503' | 'http400' | 'http429' | 'hang';

export type Expected = Pick<DeliveryResult, 'outcome'> & { reason?: string; retryAfterMs?: number };

export interface Rig {
  settings: SettingValues;
  secrets: string[];
  /** The same settings aimed at a loopback port where nothing listens. */
  refusedSettings(port: number): SettingValues;
  set(failure: Failure): void;
  /** Every request or mail the receiver got, as text. */
  received(): string[];
  /** Asserts the last delivery has the shape the service's documentation gives. */
  assertDelivered(operation: DeliveryOperation, result: DeliveryResult): void;
  /** Lifecycle sync, where the kind declares it: what the receiver got for an update or a clear. */
  assertUpdated?(update: DeliveryOperation): void;
  assertCleared?(clear: DeliveryOperation): void;
  close(): Promise<void>;
}

export interface ProviderRig {
  kind: ProviderKind;
  start(): Promise<Rig>;
  /** The outcome each failure gives with this provider; absent where the protocol has no such answer. */
  expected: Partial<Record<Exclude<Failure, 'ok' | 'hang'> | 'refused', Expected>>;
  /** Long enough for the provider's own start-up (Apprise is a Python program). */
  timeoutMs: number;
}

export const HTTP_EXPECTED: ProviderRig['expected'] = {
  http500: { outcome: 'retry', reason: 'http_500' },
  http503: { outcome: 'retry', reason: 'http_503' },
  http400: { outcome: 'reject', reason: 'http_400' },
  http429: { outcome: 'retry', reason: 'http_429', retryAfterMs: 7000 },
  refused: { outcome: 'retry', reason: 'connection_refused' },
};

export function setHttp(
  receiver: HttpReceiver,
  failure: Failure,
  ok: () => { status: number; body?: string },
): void {
  if (failure === 'hang') return receiver.answer('hang');
  if (failure === 'ok') return receiver.answer(() => ok());
  if (failure === 'http429') return receiver.answer({ status: 429, headers: { 'retry-after': '7' } });
  receiver.answer({ status: Number(failure.slice(4)), body: 'receiver error text' });
}

export function rawRequests(receiver: HttpReceiver): string[] {
  return receiver.requests.map((r) => `${r.method} ${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`);
}

export function last<T>(items: T[]): T {
  const item = items[items.length - 1];
  assert.ok(item !== undefined, 'the receiver got nothing');
  return item;
}
