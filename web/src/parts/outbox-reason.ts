import type { OutboxItemView } from '../api-types.js';
import { when } from './format.js';

/**
 * Why an item is where it is, in the words `notifyctl outbox list` uses: a send that waits for its
 * route's delay, one cancelled because the request was handled first, else the last attempt's reason.
 */
export function reasonOf(item: OutboxItemView): string {
  if (item.waitingUntil !== null) return `waiting until ${when(item.waitingUntil)}, cancelled if handled`;
  if (item.state === 'cancelled' && item.lastReason === null)
    return "cancelled: handled before its route's delay ended; nothing was sent";
  const status = item.lastStatus !== null ? ` (HTTP ${item.lastStatus})` : '';
  return `${item.lastReason ?? '—'}${status}`;
}

/** A provider's name where the page knows it, else its id. */
export function providerNamer(providers: { id: string; name: string }[] | undefined) {
  return (id: string) => providers?.find((provider) => provider.id === id)?.name ?? id;
}
