import type { ProviderKind } from '../../src/delivery/provider.js';
import { TEST_PROVIDER_KIND } from './test-provider.js';

/** The kinds of the test broker (outbox-broker-main.ts), loaded by its delivery thread too. */
export const PROVIDER_KINDS: readonly ProviderKind[] = [TEST_PROVIDER_KIND];

export const TEST_KINDS_MODULE = import.meta.url;
