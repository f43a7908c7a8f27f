import type { DeliveryResult, ProviderKind } from '../../delivery/provider.js';
import { runAttempt } from './attempt.js';
import type { AttemptRequest, Deliverer } from './deliverer.js';

/** Provider calls on the calling thread: for tests that drive the dispatcher with tick(now). */
export class InProcessDeliverer implements Deliverer {
  constructor(private readonly kinds: readonly ProviderKind[]) {}

  attempt(request: AttemptRequest, stop: AbortSignal): Promise<DeliveryResult> {
    return attemptWith(this.kinds, request, stop);
  }

  prepare(): void {}

  async close(): Promise<void> {}
}

/** One attempt with the kind the request names; an unknown kind is rejected, not retried. */
export async function attemptWith(
  kinds: readonly ProviderKind[],
  request: AttemptRequest,
  stop: AbortSignal,
): Promise<DeliveryResult> {
  const kind = kinds.find((candidate) => candidate.id === request.kindId);
  if (!kind) return { outcome: 'reject', reason: 'provider_kind_unknown' };
  return runAttempt(kind, request.operation, request.settings, request.timeoutMs, stop);
}
