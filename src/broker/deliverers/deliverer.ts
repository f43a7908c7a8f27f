import type { DeliveryOperation, DeliveryResult, SettingValues } from '../../delivery/provider.js';

/** One attempt of an outbox item, as the dispatcher asks for it. */
export interface AttemptRequest {
  kindId: string;
  operation: DeliveryOperation;
  settings: SettingValues;
  timeoutMs: number;
}

/**
 * Runs provider calls for the dispatcher. An attempt never throws: every failure is a result with a
 * reason code, and an attempt stopped through `stop` ends as a retry named `interrupted`.
 */
export interface Deliverer {
  attempt(request: AttemptRequest, stop: AbortSignal): Promise<DeliveryResult>;
  /** Gets ready for attempts to come (a provider was enabled), so the first one does not wait. */
  prepare(): void;
  close(): Promise<void>;
}
