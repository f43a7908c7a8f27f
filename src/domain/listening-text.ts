import type { ListenerHealth } from './channel-answer.js';

/**
 * A provider's `listening` in words, the same in notifyctl and on the page: whether the answers a
 * person gives on that channel can reach Notify now, and if not, why (a reason code, never more).
 */
export function listeningText(listening: Pick<ListenerHealth, 'state' | 'reason'>): string {
  switch (listening.state) {
    case 'listening':
      return 'listening for answers';
    case 'connecting':
      return 'connecting to read answers';
    case 'retrying':
      return `retrying: ${listening.reason ?? 'unknown'}`;
    case 'refused':
      return `the service refuses the credentials${listening.reason ? ` (${listening.reason})` : ''}; no answers until the provider is changed`;
  }
}
