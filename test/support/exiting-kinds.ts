import type { ProviderKind } from '../../src/delivery/provider.js';

/** A provider kind whose delivery ends the thread it runs on: what a crash of the delivery thread does. */
export const PROVIDER_KINDS: readonly ProviderKind[] = [
  {
    id: 'exits',
    title: 'Exits',
    description: 'Ends its thread (tests only).',
    settings: [],
    lifecycle: { update: false, clear: false },
    deliver: () => process.exit(3),
  },
];

export const EXITING_KINDS_MODULE = import.meta.url;
