/** People management (docs/relay.md "People"): sessions, own password, removing a person, invitations. */
import type { Clock } from './clock.js';
import type { Hub } from './hub.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { InviteRow } from './people-store.js';
import { hashSecret } from './secrets.js';
import { SESSION_IDLE_MS, type RelayStore, type User } from './store.js';

export interface SessionView {
  id: number;
  createdAt: number;
  lastUsedAt: number;
  /** The session of the browser asking. */
  current: boolean;
}

export type Removal = 'removed' | 'not_found' | 'operator';

export class People {
  constructor(
    private readonly store: RelayStore,
    private readonly hub: Hub,
    private readonly clock: Clock,
  ) {}

  async sessions(user: User, currentToken: string): Promise<SessionView[]> {
    const now = this.clock();
    const currentHash = hashSecret(currentToken);
    return (await this.store.people.sessionsOf(user.id, now, now - SESSION_IDLE_MS)).map((session) => ({
      id: session.id,
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
      current: session.tokenHash === currentHash,
    }));
  }

  /** Ends one of the person's own sessions; false when it is not theirs (or gone already). */
  async revokeSession(user: User, sessionId: number): Promise<boolean> {
    const revoked = await this.store.people.deleteSession(user.id, sessionId);
    if (revoked) this.hub.emitSessionsEnded(user.id);
    return revoked;
  }

  /** Ends every session of the person but the one asking; how many ended. */
  async revokeOtherSessions(user: User, currentToken: string): Promise<number> {
    const ended = await this.store.people.deleteOtherSessions(user.id, hashSecret(currentToken));
    if (ended > 0) this.hub.emitSessionsEnded(user.id);
    return ended;
  }

  /** false: the current password is wrong, nothing changed. Otherwise the other sessions end. */
  async changePassword(user: User, currentToken: string, current: string, next: string): Promise<boolean> {
    if (!(await verifyPassword(current, user.passwordHash))) return false;
    const passwordHash = await hashPassword(next);
    await this.store.people.setPassword(user.id, passwordHash, hashSecret(currentToken));
    this.hub.emitSessionsEnded(user.id);
    return true;
  }

  /**
   * The operator removes a person: their sessions end and their installations are revoked (open
   * event streams closed, credentials refused, what they delivered deleted). The operator stays.
   */
  async remove(userId: string): Promise<{ result: Removal; username?: string }> {
    const target = await this.store.people.userById(userId);
    if (!target) return { result: 'not_found' };
    if (target.isOperator) return { result: 'operator', username: target.username };
    const installations = await this.store.installationsOf(userId);
    if (!(await this.store.people.deleteUser(userId))) return { result: 'not_found' };
    for (const installation of installations) this.hub.emitRevoked(installation.id);
    this.hub.emitSessionsEnded(userId);
    return { result: 'removed', username: target.username };
  }

  openInvites(): Promise<InviteRow[]> {
    return this.store.people.openInvites(this.clock());
  }

  withdrawInvite(inviteId: number): Promise<boolean> {
    return this.store.people.deleteInvite(inviteId);
  }
}
