import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { NotificationDto } from '../api-types.js';
import type { Api } from '../api.js';

/**
 * What the inbox, its rows and their actions need of an API: the broker's own (createApi) has all of
 * it, and the relay's inbox provides the same through its adapter (web/src/relay/relay-inbox-api.ts).
 * Snooze silences the desk's toast and sound, so only the broker offers it.
 */
export type InboxApi = Pick<
  Api,
  'active' | 'recent' | 'notification' | 'follow' | 'answer' | 'setStatus' | 'dismiss'
> &
  Partial<Pick<Api, 'snooze'>>;

/** A notification as the inbox shows it; a relay names the paired sender it came from. */
export type InboxNotification = NotificationDto & { sender?: string };

export const InboxApiContext = createContext<InboxApi | undefined>(undefined);

export function useInboxApi(): InboxApi {
  const api = useContext(InboxApiContext);
  if (api === undefined) throw new Error('useInboxApi outside InboxApiContext.Provider');
  return api;
}
