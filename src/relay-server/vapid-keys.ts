/** The relay's VAPID key pair (RFC 8292): made once, at the first start, and kept in relay.db. */
import webpush from 'web-push';
import type { VapidKeys } from './push-store.js';
import type { RelayStore } from './store.js';

export function vapidKeysOf(store: RelayStore, now: number): VapidKeys {
  return store.push.vapidKeys() ?? store.push.keepVapidKeys(webpush.generateVAPIDKeys(), now);
}
