/** The relay's VAPID key pair (RFC 8292): made once, at the first start, and kept in the store. */
import webpush from 'web-push';
import type { VapidKeys } from './push-store.js';
import type { RelayStore } from './store.js';

export async function vapidKeysOf(store: RelayStore, now: number): Promise<VapidKeys> {
  return (await store.push.vapidKeys()) ?? store.push.keepVapidKeys(webpush.generateVAPIDKeys(), now);
}
