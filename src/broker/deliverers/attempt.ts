import type {
  DeliveryOperation,
  DeliveryResult,
  ProviderKind,
  SettingValues,
} from '../../delivery/provider.js';
import type { FixedReasonCode } from '../../delivery/reason-codes.js';

/**
 * Runs one provider call, cut at the time-out whether or not the provider honours its signal. A throw
 * becomes a retry named by the error class only: exception text may hold URLs with secrets.
 */
export async function runAttempt(
  kind: ProviderKind,
  operation: DeliveryOperation,
  settings: SettingValues,
  timeoutMs: number,
  stop?: AbortSignal,
): Promise<DeliveryResult> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<DeliveryResult>((resolve) => {
    const end = (reason: FixedReasonCode) => {
      controller.abort();
      resolve({ outcome: 'retry', reason });
    };
    timer = setTimeout(() => end('timeout'), timeoutMs);
    if (stop?.aborted) end('interrupted');
    stop?.addEventListener('abort', () => end('interrupted'), { once: true });
  });
  // Through then(), so a provider that throws before returning its promise is a retry like any other.
  const call = Promise.resolve()
    .then(() => kind.deliver(operation, { settings, signal: controller.signal }))
    .catch((error: unknown): DeliveryResult => ({ outcome: 'retry', reason: `error_${errorClass(error)}` }));
  try {
    return await Promise.race([call, cut]);
  } finally {
    clearTimeout(timer);
  }
}

function errorClass(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  return name.replace(/[^A-Za-z0-9]/g, '').toLowerCase() || 'unknown';
}
