import type { ProviderKind } from './provider.js';

/** Every outbound provider kind, one line each; the dispatcher and the API look kinds up only here. */
export const PROVIDER_KINDS: readonly ProviderKind[] = [];
