/** The relay's operations, between the HTTP routes and the store: pairing, delivery, answers, accounts. */
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

  createPairing(senderName: string, client: string | null): { pairing: Pairing; pollSecret: string } {
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
      if (this.store.openPairingByCode(pairing.userCode, now)) continue;
      this.store.insertPairing(pairing);
      return { pairing, pollSecret };
    }
  }

  /** undefined: the pairing is unknown or the secret is wrong (the caller answers 401 either way). */
  poll(pairingId: string, pollSecret: string): PollAnswer | undefined {
    return this.store.transaction(() => {
      const now = this.clock();
      const pairing = this.store.pairing(pairingId);
      if (!pairing || isForgotten(pairing, now)) return undefined;
      if (!sameSecret(pairing.secretHash, hashSecret(pollSecret))) return undefined;
      const outcome = pollOutcome(pairing, now);
      const interval = outcome.status === 'slow_down' ? outcome.interval : pairing.intervalSeconds;
      this.store.recordPoll(pairing.id, now, interval);
      if (outcome.status !== 'collect') return outcome;
      const credential = newSecret('nrc_');
      const installation: Installation = {
        id: newId('i_'),
        userId: pairing.approvedBy!,
        name: pairing.senderName,
        client: pairing.client,
        createdAt: now,
      };
      this.store.insertInstallation(installation, hashSecret(credential));
      this.store.consumePairing(pairing.id, now, pairing.approvedBy!);
      return {
        status: 'approved',
        credential,
        installation: { id: installation.id, name: installation.name },
      };
    });
  }

  openPairing(userCode: string): Pairing | undefined {
    return this.store.openPairingByCode(userCode, this.clock());
  }

  /** false: the pairing is no longer open (decided elsewhere, expired). */
  decide(pairingId: string, user: User, approve: boolean): boolean {
    return this.store.transaction(() => {
      const now = this.clock();
      const pairing = this.store.pairing(pairingId);
      if (!pairing || !isOpen(pairing, now)) return false;
      return approve
        ? this.store.approvePairing(pairing.id, user.id)
        : this.store.rejectPairing(pairing.id, user.id, now);
    });
  }

  // Installations

  authenticate(credential: string): Installation | undefined {
    const hash = hashSecret(credential);
    const found = this.store.installationByCredential(hash);
    return found && sameSecret(found.storedHash, hash) ? found.installation : undefined;
  }

  installationsOf(user: User): Installation[] {
    return this.store.installationsOf(user.id);
  }

  revoke(user: User, installationId: string): boolean {
    const revoked = this.store.deleteInstallation(installationId, user.id);
    if (revoked) {
      this.hub.emitRevoked(installationId);
      this.hub.emitInbox(user.id, { kind: 'removed', installationId });
    }
    return revoked;
  }

  // Delivery

  deliver(
    installation: Installation,
    notificationId: string,
    delivered: Delivered,
    idempotency: { key: string; requestHash: string },
  ): DeliveryAnswer | 'key_reused' | 'storage_full' {
    let changed: Stored | undefined;
    let pushed = false;
    const answer = this.store.transaction((): DeliveryAnswer | 'key_reused' | 'storage_full' => {
      const now = this.clock();
      const replay = this.store.replay(installation.id, idempotency.key);
      if (replay) {
        return replay.requestHash === idempotency.requestHash
          ? { status: replay.status, body: replay.body }
          : 'key_reused';
      }
      const stored = this.store.notification(installation.id, notificationId);
      const effect = putEffect(stored, delivered);
      let result: Stored;
      if (effect === 'insert') {
        if (!this.store.makeRoom(installation.id, MAX_NOTIFICATIONS_PER_INSTALLATION)) return 'storage_full';
        result = this.store.insertNotification(installation.id, notificationId, delivered, now);
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
        this.store.replaceNotification(result, now);
      }
      if (effect !== 'stale') changed = result;
      if (pushWorthy(stored, result)) pushed = this.queuePush(installation.userId, result.inboxId, now);
      const status = effect === 'insert' || effect === 'new_lifecycle' ? 201 : 200;
      const body = JSON.stringify({ id: notificationId, lifecycle: result.lifecycle, status: result.status });
      this.store.insertReplay(installation.id, idempotency.key, { ...idempotency, status, body }, now);
      return { status, body };
    });
    if (changed) this.announce(installation.userId, changed, installation.name);
    if (pushed) this.hub.emitPushQueued();
    return answer;
  }

  /** A sender's resolve or dismiss; undefined when it never delivered that id. */
  senderStatus(installation: Installation, notificationId: string, status: RelayStatus): Stored | undefined {
    let changed = false;
    const result = this.store.transaction(() => {
      const stored = this.store.notification(installation.id, notificationId);
      if (!stored || stored.status !== 'active') return stored;
      const now = this.clock();
      this.store.setStatus(stored.inboxId, status, now);
      this.queuePush(installation.userId, stored.inboxId, now);
      changed = true;
      return { ...stored, status };
    });
    if (changed && result) {
      this.announce(installation.userId, result, installation.name);
      this.hub.emitPushQueued();
    }
    return result;
  }

  eventsAfter(installationId: string, afterId: number): StoredEvent[] {
    return this.store.eventsAfter(installationId, afterId);
  }

  // Inbox

  inbox(user: User): InboxItem[] {
    return this.store.inbox(user.id, 200).map((stored) => inboxItem(stored, stored.installationName));
  }

  answer(
    user: User,
    inboxId: number,
    action: string,
    lifecycle: number,
    revision: number,
  ): InboxItem | AnswerRefusal | 'not_found' {
    const result = this.store.transaction((): Answered | AnswerRefusal | 'not_found' => {
      const stored = this.store.notificationOfUser(inboxId, user.id);
      if (!stored) return 'not_found';
      const refusal = answerRefusal(stored, action, lifecycle, revision);
      if (refusal) return refusal;
      return this.recordAnswer(stored, action, user.id);
    });
    return typeof result === 'string' ? result : this.afterAnswer(user.id, result);
  }

  /**
   * An answer from a push (docs/relay-protocol.md "Phone push"): the token is the capability, no
   * session. 'foreign': no such token, or one for another notification; 'used': answered with it before.
   */
  answerWithToken(
    inboxId: number,
    token: string,
    action: string,
  ): InboxItem | AnswerRefusal | 'foreign' | 'used' {
    const result = this.store.transaction((): Answered | AnswerRefusal | 'foreign' | 'used' => {
      const tokenHash = hashSecret(token);
      const found = this.store.push.token(tokenHash);
      const stored = this.store.notificationAt(inboxId);
      if (!found || found.inboxId !== inboxId || !stored) return 'foreign';
      if (found.usedAt !== null) return 'used';
      const refusal = answerRefusal(stored, action, found.lifecycle, found.revision);
      if (refusal) return refusal;
      this.store.push.useToken(tokenHash, this.clock());
      const owner = this.store.ownerOfInstallation(stored.installationId)!;
      return this.recordAnswer(stored, action, owner);
    });
    return typeof result === 'string' ? result : this.afterAnswer(result.userId, result);
  }

  /** A single-use answer token for what a push shows now (its hash is stored; the token goes in the push). */
  answerToken(stored: Stored): string {
    const token = newSecret('nrt_');
    this.store.push.insertToken(
      hashSecret(token),
      stored.inboxId,
      stored.lifecycle,
      stored.revision,
      this.clock(),
    );
    return token;
  }

  private recordAnswer(stored: Stored, action: string, userId: string): Answered {
    const now = this.clock();
    const answeredAt = new Date(now).toISOString();
    this.store.setAnswer(stored.inboxId, action, answeredAt, now);
    const data = JSON.stringify({
      notification_id: stored.notificationId,
      lifecycle: stored.lifecycle,
      // The sender's revision of what the person saw: the sender refuses the answer if it moved on.
      ...(stored.senderRevision !== null && { revision: stored.senderRevision }),
      action,
      answered_at: answeredAt,
    });
    const event: StoredEvent = {
      id: this.store.insertEvent(stored.installationId, 'answer', data, now),
      installationId: stored.installationId,
      type: 'answer',
      data,
    };
    // The person's other devices close their alert for it.
    this.queuePush(userId, stored.inboxId, now);
    return { stored: { ...stored, status: 'resolved', answerAction: action, answeredAt }, event, userId };
  }

  private afterAnswer(userId: string, answered: Answered): InboxItem {
    this.hub.emitEvent(answered.event);
    this.hub.emitPushQueued();
    return this.announce(
      userId,
      answered.stored,
      this.store.installationName(answered.stored.installationId) ?? '',
    );
  }

  /** Queues a push of this notification to each of the person's devices; true when there are any. */
  private queuePush(userId: string, inboxId: number, now: number): boolean {
    return this.store.push.enqueueForUser(userId, inboxId, now) > 0;
  }

  inboxStatus(
    user: User,
    inboxId: number,
    status: 'resolved' | 'dismissed',
    lifecycle: number,
  ): InboxItem | 'not_found' | 'other_lifecycle' {
    let event: StoredEvent | undefined;
    const result = this.store.transaction((): Stored | 'not_found' | 'other_lifecycle' => {
      const stored = this.store.notificationOfUser(inboxId, user.id);
      if (!stored) return 'not_found';
      if (stored.lifecycle !== lifecycle) return 'other_lifecycle';
      if (stored.status !== 'active') return stored;
      const now = this.clock();
      this.store.setStatus(stored.inboxId, status, now);
      this.queuePush(user.id, stored.inboxId, now);
      const data = JSON.stringify({
        notification_id: stored.notificationId,
        lifecycle: stored.lifecycle,
        status,
        changed_at: new Date(now).toISOString(),
      });
      event = {
        id: this.store.insertEvent(stored.installationId, 'status', data, now),
        installationId: stored.installationId,
        type: 'status',
        data,
      };
      return { ...stored, status };
    });
    if (typeof result === 'string') return result;
    if (event) {
      this.hub.emitEvent(event);
      this.hub.emitPushQueued();
    }
    return this.announce(user.id, result, this.store.installationName(result.installationId) ?? '');
  }

  private announce(userId: string, stored: Stored, installationName: string): InboxItem {
    const item = inboxItem(stored, installationName);
    this.hub.emitInbox(userId, { kind: 'changed', item });
    return item;
  }

  // Accounts

  hasUsers(): boolean {
    return this.store.countUsers() > 0;
  }

  users(): User[] {
    return this.store.users();
  }

  /** The person whose account the installation belongs to: who approved its pairing. */
  ownerOf(installation: Installation): User | undefined {
    return this.store.userById(installation.userId);
  }

  /** Whether a user has this name, in any case (`Ada` is taken when `ada` exists). */
  nameTaken(username: string): boolean {
    return this.store.userByName(username) !== undefined;
  }

  /**
   * undefined: the name is taken in any case, or (for the operator) an account exists already. The
   * slow hash comes first; the check and the insert then happen in one transaction, so two uses of the
   * setup link at once make one operator.
   */
  async createUser(username: string, password: string, isOperator: boolean): Promise<User | undefined> {
    const passwordHash = await hashPassword(password);
    const user: User = { id: newId('u_'), username, passwordHash, isOperator, createdAt: this.clock() };
    return this.store.insertUserIfFree(user, isOperator) ? user : undefined;
  }

  /** Always costs one scrypt, known user or not, so the time taken does not tell which names exist. */
  async checkPassword(username: string, password: string): Promise<User | undefined> {
    const user = this.store.userByName(username);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await DECOY_HASH_PROMISE));
    return user && matches ? user : undefined;
  }

  startSession(user: User): string {
    const token = newSecret('nrs_');
    this.store.insertSession(hashSecret(token), user.id, this.clock());
    return token;
  }

  sessionUser(token: string): User | undefined {
    return this.store.sessionUser(hashSecret(token), this.clock());
  }

  endSession(token: string): void {
    this.store.deleteSession(hashSecret(token));
  }

  createInvite(user: User): string {
    const token = newSecret('nri_');
    this.store.insertInvite(hashSecret(token), user.id, this.clock());
    return token;
  }

  isLiveInvite(token: string): boolean {
    return this.store.isLiveInvite(hashSecret(token), this.clock());
  }

  takeInvite(token: string): boolean {
    return this.store.takeInvite(hashSecret(token), this.clock());
  }

  purge(): void {
    this.store.purge(this.clock(), ENDED_PAIRING_RETENTION_MS);
  }
}
