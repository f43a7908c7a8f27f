/** The relay's operations, between the HTTP routes and the store: pairing, delivery, answers, accounts. */
import { answersWithheld } from '../domain/display-controls.js';
import type { Clock } from './clock.js';
import {
  answerRefusal,
  MAX_NOTIFICATIONS_PER_INSTALLATION,
  putEffect,
  revisionAfter,
  type AnswerRefusal,
  type Delivered,
  type RelayStatus,
  type Stored,
} from './domain/delivery.js';
import {
  ENDED_PAIRING_RETENTION_MS,
  PAIRING_LIFETIME_MS,
  POLL_INTERVAL_SECONDS,
  isForgotten,
  isOpen,
  pollOutcome,
  type Pairing,
} from './domain/pairing.js';
import { answerable, pushTtlSeconds } from './domain/push-payload.js';
import type { Hub } from './hub.js';
import { inboxItem, type InboxItem } from './inbox-item.js';
import { DECOY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.js';
import { hashSecret, newId, newSecret, newUserCode, sameSecret } from './secrets.js';
import type { Installation, RelayStore, StoredEvent, User } from './store.js';

export type PollAnswer =
  | { status: 'pending' | 'rejected' | 'expired' | 'consumed' }
  | { status: 'slow_down'; interval: number }
  | { status: 'approved'; credential: string; installation: { id: string; name: string } };

interface Answered {
  stored: Stored;
  event: StoredEvent;
  userId: string;
}

/**
 * Whether a PUT's result goes to the person's devices: a new or reopened request, new content, or its
 * end. A repeat of what they have, or one that arrives already ended, does not buzz anyone.
 */
function pushWorthy(before: Stored | undefined, after: Stored): boolean {
  if (!before) return after.status === 'active';
  if (before.status !== after.status) return true;
  return (
    after.status === 'active' && (before.revision !== after.revision || before.lifecycle !== after.lifecycle)
  );
}

export interface DeliveryAnswer {
  status: number;
  body: string;
}

export class Relay {
  constructor(
    private readonly store: RelayStore,
    private readonly hub: Hub,
    readonly clock: Clock,
    readonly name: string,
  ) {}

  // Pairing

  async createPairing(
    senderName: string,
    client: string | null,
  ): Promise<{ pairing: Pairing; pollSecret: string }> {
    const now = this.clock();
    const pollSecret = newSecret('nrp_');
    for (;;) {
      const pairing: Pairing = {
        id: newId('p_'),
        secretHash: hashSecret(pollSecret),
        userCode: newUserCode(),
        senderName,
        client,
        createdAt: now,
        expiresAt: now + PAIRING_LIFETIME_MS,
        intervalSeconds: POLL_INTERVAL_SECONDS,
        lastPollAt: null,
        state: 'pending',
        endedAt: null,
        approvedBy: null,
      };
      // Two open pairings never share a code: the page finds a pairing by its code alone.
      if (await this.store.openPairingByCode(pairing.userCode, now)) continue;
      await this.store.insertPairing(pairing);
      return { pairing, pollSecret };
    }
  }

  /** undefined: the pairing is unknown or the secret is wrong (the caller answers 401 either way). */
  poll(pairingId: string, pollSecret: string): Promise<PollAnswer | undefined> {
    return this.store.transaction(async () => {
      const now = this.clock();
      const pairing = await this.store.pairing(pairingId);
      if (!pairing || isForgotten(pairing, now)) return undefined;
      if (!sameSecret(pairing.secretHash, hashSecret(pollSecret))) return undefined;
      const outcome = pollOutcome(pairing, now);
      const interval = outcome.status === 'slow_down' ? outcome.interval : pairing.intervalSeconds;
      await this.store.recordPoll(pairing.id, now, interval);
      if (outcome.status !== 'collect') return outcome;
      const credential = newSecret('nrc_');
      const installation: Installation = {
        id: newId('i_'),
        userId: pairing.approvedBy!,
        name: pairing.senderName,
        client: pairing.client,
        createdAt: now,
      };
      await this.store.insertInstallation(installation, hashSecret(credential));
      await this.store.consumePairing(pairing.id, now, pairing.approvedBy!);
      return {
        status: 'approved',
        credential,
        installation: { id: installation.id, name: installation.name },
      };
    });
  }

  openPairing(userCode: string): Promise<Pairing | undefined> {
    return this.store.openPairingByCode(userCode, this.clock());
  }

  /** false: the pairing is no longer open (decided elsewhere, expired). */
  decide(pairingId: string, user: User, approve: boolean): Promise<boolean> {
    return this.store.transaction(async () => {
      const now = this.clock();
      const pairing = await this.store.pairing(pairingId);
      if (!pairing || !isOpen(pairing, now)) return false;
      return approve
        ? this.store.approvePairing(pairing.id, user.id)
        : this.store.rejectPairing(pairing.id, user.id, now);
    });
  }

  // Installations

  async authenticate(credential: string): Promise<Installation | undefined> {
    const hash = hashSecret(credential);
    const found = await this.store.installationByCredential(hash);
    return found && sameSecret(found.storedHash, hash) ? found.installation : undefined;
  }

  installationsOf(user: User): Promise<Installation[]> {
    return this.store.installationsOf(user.id);
  }

  async revoke(user: User, installationId: string): Promise<boolean> {
    const revoked = await this.store.deleteInstallation(installationId, user.id);
    if (revoked) {
      this.hub.emitRevoked(installationId);
      this.hub.emitInbox(user.id, { kind: 'removed', installationId });
    }
    return revoked;
  }

  // Delivery

  async deliver(
    installation: Installation,
    notificationId: string,
    delivered: Delivered,
    idempotency: { key: string; requestHash: string },
  ): Promise<DeliveryAnswer | 'key_reused' | 'storage_full'> {
    let changed: Stored | undefined;
    let pushed = false;
    const answer = await this.store.transaction(
      async (): Promise<DeliveryAnswer | 'key_reused' | 'storage_full'> => {
        changed = undefined;
        pushed = false;
        const now = this.clock();
        const replay = await this.store.replay(installation.id, idempotency.key);
        if (replay) {
          return replay.requestHash === idempotency.requestHash
            ? { status: replay.status, body: replay.body }
            : 'key_reused';
        }
        const stored = await this.store.notification(installation.id, notificationId);
        const effect = putEffect(stored, delivered);
        let result: Stored;
        if (effect === 'insert') {
          if (!(await this.store.makeRoom(installation.id, MAX_NOTIFICATIONS_PER_INSTALLATION)))
            return 'storage_full';
          result = await this.store.insertNotification(installation.id, notificationId, delivered, now);
        } else if (effect === 'stale') {
          result = stored!;
        } else {
          const newLifecycle = effect === 'new_lifecycle';
          result = {
            ...stored!,
            ...delivered,
            lifecycle: stored!.lifecycle + (newLifecycle ? 1 : 0),
            revision: revisionAfter(stored!, delivered, effect),
            answerAction: newLifecycle ? null : stored!.answerAction,
            answeredAt: newLifecycle ? null : stored!.answeredAt,
            receivedAt: newLifecycle ? now : stored!.receivedAt,
          };
          await this.store.replaceNotification(result, now);
        }
        if (effect !== 'stale') changed = result;
        if (pushWorthy(stored, result))
          pushed = await this.queuePush(installation.userId, result.inboxId, now);
        const status = effect === 'insert' || effect === 'new_lifecycle' ? 201 : 200;
        const body = JSON.stringify({
          id: notificationId,
          lifecycle: result.lifecycle,
          status: result.status,
        });
        await this.store.insertReplay(
          installation.id,
          idempotency.key,
          { ...idempotency, status, body },
          now,
        );
        return { status, body };
      },
    );
    if (changed) this.announce(installation.userId, changed, installation.name);
    if (pushed) this.hub.emitPushQueued();
    return answer;
  }

  /** A sender's resolve or dismiss; undefined when it never delivered that id. */
  async senderStatus(
    installation: Installation,
    notificationId: string,
    status: RelayStatus,
  ): Promise<Stored | undefined> {
    let changed = false;
    const result = await this.store.transaction(async () => {
      const stored = await this.store.notification(installation.id, notificationId);
      if (!stored || stored.status !== 'active') return stored;
      const now = this.clock();
      await this.store.setStatus(stored.inboxId, status, now);
      await this.queuePush(installation.userId, stored.inboxId, now);
      changed = true;
      return { ...stored, status };
    });
    if (changed && result) {
      this.announce(installation.userId, result, installation.name);
      this.hub.emitPushQueued();
    }
    return result;
  }

  eventsAfter(installationId: string, afterId: number): Promise<StoredEvent[]> {
    return this.store.eventsAfter(installationId, afterId);
  }

  // Inbox

  async inbox(user: User): Promise<InboxItem[]> {
    return (await this.store.inbox(user.id, 200)).map((stored) => inboxItem(stored, stored.installationName));
  }

  async answer(
    user: User,
    inboxId: number,
    action: string,
    lifecycle: number,
    revision: number,
  ): Promise<InboxItem | AnswerRefusal | 'not_found'> {
    const result = await this.store.transaction(async (): Promise<Answered | AnswerRefusal | 'not_found'> => {
      const stored = await this.store.notificationOfUser(inboxId, user.id);
      if (!stored) return 'not_found';
      const refusal = answerRefusal(stored, action, lifecycle, revision);
      if (refusal) return refusal;
      return await this.recordAnswer(stored, action, user.id);
    });
    return typeof result === 'string' ? result : this.afterAnswer(user.id, result);
  }

  /**
   * An answer from a push (docs/relay-protocol.md "Phone push"): the token is the capability, no
   * session. 'foreign': no such token, or one for another notification; 'used': answered with it before.
   */
  async answerWithToken(
    inboxId: number,
    token: string,
    action: string,
  ): Promise<InboxItem | AnswerRefusal | 'foreign' | 'used'> {
    const result = await this.store.transaction(
      async (): Promise<Answered | AnswerRefusal | 'foreign' | 'used'> => {
        const tokenHash = hashSecret(token);
        const found = await this.store.push.token(tokenHash);
        const stored = await this.store.notificationAt(inboxId);
        if (!found || found.inboxId !== inboxId || !stored) return 'foreign';
        if (found.usedAt !== null) return 'used';
        const refusal = answerRefusal(stored, action, found.lifecycle, found.revision);
        if (refusal) return refusal;
        // The write lock already orders two taps at once; this keeps one answer per token without it too.
        if (!(await this.store.push.useToken(tokenHash, this.clock()))) return 'used';
        const owner = (await this.store.ownerOfInstallation(stored.installationId))!;
        return await this.recordAnswer(stored, action, owner);
      },
    );
    return typeof result === 'string' ? result : this.afterAnswer(result.userId, result);
  }

  /**
   * An answer link for another app's buttons (docs/relay-protocol.md "Answer links"): the capability a
   * push carries, minted for what the relay holds now only when that is the sender's `revision`.
   * 'not_yet': the relay holds no notification with that id, or an older revision of it (its delivery is
   * still on the way); 'not_answerable': ended, answered, without actions, replaced by a newer revision,
   * past its answer time, or text answered in the terminal only.
   */
  async answerLink(
    installation: Installation,
    notificationId: string,
    senderRevision: number,
  ): Promise<{ stored: Stored; token: string } | 'not_yet' | 'not_answerable'> {
    return await this.store.transaction(async () => {
      const stored = await this.store.notification(installation.id, notificationId);
      if (!stored || stored.senderRevision === null || stored.senderRevision < senderRevision)
        return 'not_yet';
      if (
        stored.senderRevision !== senderRevision ||
        !answerable(stored) ||
        answersWithheld(stored) ||
        pushTtlSeconds(stored, this.clock()) === 0
      )
        return 'not_answerable';
      return { stored, token: await this.answerToken(stored) };
    });
  }

  /** A single-use answer token for what a push shows now (its hash is stored; the token goes in the push). */
  async answerToken(stored: Stored): Promise<string> {
    const token = newSecret('nrt_');
    await this.store.push.insertToken(
      hashSecret(token),
      stored.inboxId,
      stored.lifecycle,
      stored.revision,
      this.clock(),
    );
    return token;
  }

  private async recordAnswer(stored: Stored, action: string, userId: string): Promise<Answered> {
    const now = this.clock();
    const answeredAt = new Date(now).toISOString();
    await this.store.setAnswer(stored.inboxId, action, answeredAt, now);
    const data = JSON.stringify({
      notification_id: stored.notificationId,
      lifecycle: stored.lifecycle,
      // The sender's revision of what the person saw: the sender refuses the answer if it moved on.
      ...(stored.senderRevision !== null && { revision: stored.senderRevision }),
      action,
      answered_at: answeredAt,
    });
    const event: StoredEvent = {
      id: await this.store.insertEvent(stored.installationId, 'answer', data, now),
      installationId: stored.installationId,
      type: 'answer',
      data,
    };
    // The person's other devices close their alert for it.
    await this.queuePush(userId, stored.inboxId, now);
    return { stored: { ...stored, status: 'resolved', answerAction: action, answeredAt }, event, userId };
  }

  private async afterAnswer(userId: string, answered: Answered): Promise<InboxItem> {
    this.hub.emitEvent(answered.event);
    this.hub.emitPushQueued();
    return this.announce(
      userId,
      answered.stored,
      (await this.store.installationName(answered.stored.installationId)) ?? '',
    );
  }

  /** Queues a push of this notification to each of the person's devices; true when there are any. */
  private async queuePush(userId: string, inboxId: number, now: number): Promise<boolean> {
    return (await this.store.push.enqueueForUser(userId, inboxId, now)) > 0;
  }

  async inboxStatus(
    user: User,
    inboxId: number,
    status: 'resolved' | 'dismissed',
    lifecycle: number,
  ): Promise<InboxItem | 'not_found' | 'other_lifecycle'> {
    let event: StoredEvent | undefined;
    const result = await this.store.transaction(
      async (): Promise<Stored | 'not_found' | 'other_lifecycle'> => {
        event = undefined;
        const stored = await this.store.notificationOfUser(inboxId, user.id);
        if (!stored) return 'not_found';
        if (stored.lifecycle !== lifecycle) return 'other_lifecycle';
        if (stored.status !== 'active') return stored;
        const now = this.clock();
        await this.store.setStatus(stored.inboxId, status, now);
        await this.queuePush(user.id, stored.inboxId, now);
        const data = JSON.stringify({
          notification_id: stored.notificationId,
          lifecycle: stored.lifecycle,
          status,
          changed_at: new Date(now).toISOString(),
        });
        event = {
          id: await this.store.insertEvent(stored.installationId, 'status', data, now),
          installationId: stored.installationId,
          type: 'status',
          data,
        };
        return { ...stored, status };
      },
    );
    if (typeof result === 'string') return result;
    if (event) {
      this.hub.emitEvent(event);
      this.hub.emitPushQueued();
    }
    return this.announce(user.id, result, (await this.store.installationName(result.installationId)) ?? '');
  }

  private announce(userId: string, stored: Stored, installationName: string): InboxItem {
    const item = inboxItem(stored, installationName);
    this.hub.emitInbox(userId, { kind: 'changed', item });
    return item;
  }

  // Accounts

  async hasUsers(): Promise<boolean> {
    return (await this.store.countUsers()) > 0;
  }

  users(): Promise<User[]> {
    return this.store.users();
  }

  /** The person whose account the installation belongs to: who approved its pairing. */
  ownerOf(installation: Installation): Promise<User | undefined> {
    return this.store.userById(installation.userId);
  }

  /** Whether a user has this name, in any case (`Ada` is taken when `ada` exists). */
  async nameTaken(username: string): Promise<boolean> {
    return (await this.store.userByName(username)) !== undefined;
  }

  /**
   * undefined: the name is taken in any case, or (for the operator) an account exists already. The
   * slow hash comes first; the check and the insert then happen in one transaction, so two uses of the
   * setup link at once make one operator.
   */
  async createUser(username: string, password: string, isOperator: boolean): Promise<User | undefined> {
    const passwordHash = await hashPassword(password);
    const user: User = { id: newId('u_'), username, passwordHash, isOperator, createdAt: this.clock() };
    return (await this.store.insertUserIfFree(user, isOperator)) ? user : undefined;
  }

  /** Always costs one scrypt, known user or not, so the time taken does not tell which names exist. */
  async checkPassword(username: string, password: string): Promise<User | undefined> {
    const user = await this.store.userByName(username);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await DECOY_HASH_PROMISE));
    return user && matches ? user : undefined;
  }

  async startSession(user: User): Promise<string> {
    const token = newSecret('nrs_');
    await this.store.insertSession(hashSecret(token), user.id, this.clock());
    return token;
  }

  sessionUser(token: string): Promise<User | undefined> {
    return this.store.sessionUser(hashSecret(token), this.clock());
  }

  endSession(token: string): Promise<void> {
    return this.store.deleteSession(hashSecret(token));
  }

  async createInvite(user: User): Promise<string> {
    const token = newSecret('nri_');
    await this.store.insertInvite(hashSecret(token), user.id, this.clock());
    return token;
  }

  isLiveInvite(token: string): Promise<boolean> {
    return this.store.isLiveInvite(hashSecret(token), this.clock());
  }

  takeInvite(token: string): Promise<boolean> {
    return this.store.takeInvite(hashSecret(token), this.clock());
  }

  purge(): Promise<void> {
    return this.store.purge(this.clock(), ENDED_PAIRING_RETENTION_MS);
  }
}
