/** Each person's devices for phone push, between the inbox API and the store (docs/relay.md "Phone push"). */
import type { Clock } from './clock.js';
import type { PushPrivacy } from './domain/push-payload.js';
import { MAX_SUBSCRIPTIONS_PER_PERSON, type NewSubscription } from './domain/push-subscription.js';
import type { Hub } from './hub.js';
import type { PushDevice } from './push-store.js';
import { newId } from './secrets.js';
import type { RelayStore, User } from './store.js';

/** A device as the inbox API lists it: never its endpoint or keys. */
export interface DeviceView {
  id: string;
  name: string;
  added_at: string;
  last_delivery_at?: string;
  last_failure_at?: string;
  last_failure?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function view(device: PushDevice): DeviceView {
  return {
    id: device.id,
    name: device.name,
    added_at: iso(device.createdAt),
    ...(device.lastDeliveryAt !== null && { last_delivery_at: iso(device.lastDeliveryAt) }),
    ...(device.lastFailureAt !== null && { last_failure_at: iso(device.lastFailureAt) }),
    ...(device.lastFailure !== null && { last_failure: device.lastFailure }),
  };
}

export class Push {
  constructor(
    private readonly store: RelayStore,
    private readonly hub: Hub,
    private readonly clock: Clock,
    /** The relay's VAPID public key (base64url P-256 point): browsers subscribe with it. */
    readonly publicKey: string,
    /** Endpoints on this machine are accepted (--allow-loopback-push). */
    readonly allowLoopback: boolean,
  ) {}

  async devices(user: User): Promise<DeviceView[]> {
    return (await this.store.push.devicesOf(user.id)).map(view);
  }

  /**
   * The device's id; 'full' when the person has MAX_SUBSCRIPTIONS_PER_PERSON already. The same browser
   * registering again keeps its id (and becomes this person's device if another had it).
   */
  subscribe(
    user: User,
    device: NewSubscription,
    origin: string,
  ): Promise<{ id: string; created: boolean } | 'full'> {
    return this.store.transaction(async () => {
      const existing = await this.store.push.deviceByEndpoint(device.endpoint);
      if (existing) {
        if (
          existing.userId !== user.id &&
          (await this.store.push.countDevices(user.id)) >= MAX_SUBSCRIPTIONS_PER_PERSON
        )
          return 'full';
        await this.store.push.replaceDevice(existing.id, user.id, device, origin);
        return { id: existing.id, created: false };
      }
      if ((await this.store.push.countDevices(user.id)) >= MAX_SUBSCRIPTIONS_PER_PERSON) return 'full';
      const id = newId('d_');
      await this.store.push.insertDevice(id, user.id, device, origin, this.clock());
      return { id, created: true };
    });
  }

  remove(user: User, deviceId: string): Promise<boolean> {
    return this.store.push.deleteDevice(deviceId, user.id);
  }

  /** Queues "Send test" for one of the person's devices; false when it is not theirs. */
  async sendTest(user: User, deviceId: string): Promise<boolean> {
    if (!(await this.store.push.devicesOf(user.id)).some((device) => device.id === deviceId)) return false;
    await this.store.push.enqueueTest(deviceId, this.clock());
    this.hub.emitPushQueued();
    return true;
  }

  privacy(user: User): Promise<PushPrivacy> {
    return this.store.push.privacy(user.id);
  }

  setPrivacy(user: User, privacy: PushPrivacy): Promise<void> {
    return this.store.push.setPrivacy(user.id, privacy);
  }
}
