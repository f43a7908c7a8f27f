/** The SQL of phone push: VAPID keys, devices, the durable push queue and the answer tokens (relay.db). */
import type Database from 'better-sqlite3';
import type { PushPrivacy } from './domain/push-payload.js';
import type { NewSubscription } from './domain/push-subscription.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushDevice {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  name: string;
  /** The relay origin the device registered on: its answer links point there. */
  origin: string;
  createdAt: number;
  lastDeliveryAt: number | null;
  lastFailureAt: number | null;
  lastFailure: string | null;
}

/** One push still to send to one device: the notification's state is read when it is sent. */
export interface PushJob {
  id: number;
  generation: number;
  attempts: number;
  shortened: boolean;
  /** null: a test push. */
  inboxId: number | null;
  device: PushDevice;
  privacy: PushPrivacy;
}

export interface AnswerToken {
  inboxId: number;
  lifecycle: number;
  revision: number;
  usedAt: number | null;
}

type Row = Record<string, unknown>;

function deviceOf(row: Row): PushDevice {
  return {
    id: row['id'] as string,
    userId: row['user_id'] as string,
    endpoint: row['endpoint'] as string,
    p256dh: row['p256dh'] as string,
    auth: row['auth'] as string,
    name: row['name'] as string,
    origin: row['origin'] as string,
    createdAt: row['created_at'] as number,
    lastDeliveryAt: row['last_delivery_at'] as number | null,
    lastFailureAt: row['last_failure_at'] as number | null,
    lastFailure: row['last_failure'] as string | null,
  };
}

export class PushStore {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      keys: db.prepare('SELECT public_key, private_key FROM push_keys WHERE id = 1'),
      insertKeys: db.prepare(
        'INSERT OR IGNORE INTO push_keys (id, public_key, private_key, created_at) VALUES (1, ?, ?, ?)',
      ),
      devicesOf: db.prepare('SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id'),
      countDevices: db.prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?'),
      deviceByEndpoint: db.prepare('SELECT * FROM push_subscriptions WHERE endpoint = ?'),
      insertDevice: db.prepare(
        `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name, origin, created_at)
         VALUES (@id, @userId, @endpoint, @p256dh, @auth, @name, @origin, @now)`,
      ),
      // The same browser registering again (new keys, another person signed in): it is that device now.
      replaceDevice: db.prepare(
        `UPDATE push_subscriptions SET user_id = @userId, p256dh = @p256dh, auth = @auth, name = @name,
           origin = @origin, last_failure = NULL, last_failure_at = NULL WHERE id = @id`,
      ),
      deleteDevice: db.prepare('DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?'),
      forgetDevice: db.prepare('DELETE FROM push_subscriptions WHERE id = ?'),
      enqueueForUser: db.prepare(
        `INSERT INTO push_queue (subscription_id, inbox_id, next_attempt_at, created_at)
           SELECT id, @inboxId, @now, @now FROM push_subscriptions WHERE user_id = @userId
         ON CONFLICT (subscription_id, inbox_id) DO UPDATE SET generation = generation + 1, shortened = 0`,
      ),
      enqueueTest: db.prepare(
        'INSERT INTO push_queue (subscription_id, inbox_id, next_attempt_at, created_at) VALUES (?, NULL, ?, ?)',
      ),
      due: db.prepare(
        `SELECT push_queue.id AS job_id, generation, attempts, shortened, inbox_id, users.push_privacy,
           push_subscriptions.*
         FROM push_queue JOIN push_subscriptions ON push_subscriptions.id = subscription_id
           JOIN users ON users.id = push_subscriptions.user_id
         WHERE next_attempt_at <= ? ORDER BY next_attempt_at, push_queue.id LIMIT ?`,
      ),
      nextDue: db.prepare('SELECT MIN(next_attempt_at) AS at FROM push_queue'),
      finish: db.prepare('DELETE FROM push_queue WHERE id = ? AND generation = ?'),
      drop: db.prepare('DELETE FROM push_queue WHERE id = ?'),
      retry: db.prepare('UPDATE push_queue SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?'),
      shorten: db.prepare('UPDATE push_queue SET shortened = 1 WHERE id = ?'),
      delivered: db.prepare('UPDATE push_subscriptions SET last_delivery_at = ? WHERE id = ?'),
      failed: db.prepare('UPDATE push_subscriptions SET last_failure_at = ?, last_failure = ? WHERE id = ?'),
      insertToken: db.prepare(
        'INSERT INTO push_tokens (token_hash, inbox_id, lifecycle, revision, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      token: db.prepare(
        'SELECT inbox_id, lifecycle, revision, used_at FROM push_tokens WHERE token_hash = ?',
      ),
      useToken: db.prepare('UPDATE push_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
      privacy: db.prepare('SELECT push_privacy FROM users WHERE id = ?'),
      setPrivacy: db.prepare('UPDATE users SET push_privacy = ? WHERE id = ?'),
    };
  }

  vapidKeys(): VapidKeys | undefined {
    const row = this.statements.keys.get() as Row | undefined;
    return row && { publicKey: row['public_key'] as string, privateKey: row['private_key'] as string };
  }

  /** Keeps these keys unless a pair is stored already; the stored pair either way. */
  keepVapidKeys(keys: VapidKeys, now: number): VapidKeys {
    this.statements.insertKeys.run(keys.publicKey, keys.privateKey, now);
    return this.vapidKeys()!;
  }

  devicesOf(userId: string): PushDevice[] {
    return (this.statements.devicesOf.all(userId) as Row[]).map(deviceOf);
  }

  countDevices(userId: string): number {
    return (this.statements.countDevices.get(userId) as { n: number }).n;
  }

  deviceByEndpoint(endpoint: string): PushDevice | undefined {
    const row = this.statements.deviceByEndpoint.get(endpoint) as Row | undefined;
    return row && deviceOf(row);
  }

  insertDevice(id: string, userId: string, device: NewSubscription, origin: string, now: number): void {
    this.statements.insertDevice.run({ id, userId, ...device, origin, now });
  }

  replaceDevice(id: string, userId: string, device: NewSubscription, origin: string): void {
    this.statements.replaceDevice.run({ id, userId, ...device, origin });
  }

  deleteDevice(id: string, userId: string): boolean {
    return this.statements.deleteDevice.run(id, userId).changes === 1;
  }

  /** The push service says the device is gone (404/410): it and its queued pushes go. */
  forgetDevice(id: string): void {
    this.statements.forgetDevice.run(id);
  }

  /** A push of this notification to each of the person's devices; one still queued is replaced. */
  enqueueForUser(userId: string, inboxId: number, now: number): number {
    return this.statements.enqueueForUser.run({ userId, inboxId, now }).changes;
  }

  enqueueTest(deviceId: string, now: number): void {
    this.statements.enqueueTest.run(deviceId, now, now);
  }

  due(now: number, limit: number): PushJob[] {
    return (this.statements.due.all(now, limit) as Row[]).map((row) => ({
      id: row['job_id'] as number,
      generation: row['generation'] as number,
      attempts: row['attempts'] as number,
      shortened: row['shortened'] === 1,
      inboxId: row['inbox_id'] as number | null,
      device: deviceOf(row),
      privacy: row['push_privacy'] as PushPrivacy,
    }));
  }

  nextDueAt(): number | undefined {
    return (this.statements.nextDue.get() as { at: number | null }).at ?? undefined;
  }

  /** Sent: gone from the queue, unless the notification changed meanwhile (then it goes again). */
  finish(job: PushJob): void {
    this.statements.finish.run(job.id, job.generation);
  }

  drop(jobId: number): void {
    this.statements.drop.run(jobId);
  }

  retryAt(jobId: number, at: number): void {
    this.statements.retry.run(at, jobId);
  }

  shorten(jobId: number): void {
    this.statements.shorten.run(jobId);
  }

  recordDelivery(deviceId: string, now: number): void {
    this.statements.delivered.run(now, deviceId);
  }

  recordFailure(deviceId: string, now: number, why: string): void {
    this.statements.failed.run(now, why, deviceId);
  }

  insertToken(tokenHash: string, inboxId: number, lifecycle: number, revision: number, now: number): void {
    this.statements.insertToken.run(tokenHash, inboxId, lifecycle, revision, now);
  }

  token(tokenHash: string): AnswerToken | undefined {
    const row = this.statements.token.get(tokenHash) as Row | undefined;
    return (
      row && {
        inboxId: row['inbox_id'] as number,
        lifecycle: row['lifecycle'] as number,
        revision: row['revision'] as number,
        usedAt: row['used_at'] as number | null,
      }
    );
  }

  /** true: it was unused until now (two taps at once cannot both use it). */
  useToken(tokenHash: string, now: number): boolean {
    return this.statements.useToken.run(now, tokenHash).changes === 1;
  }

  privacy(userId: string): PushPrivacy {
    return ((this.statements.privacy.get(userId) as Row | undefined)?.['push_privacy'] ??
      'full') as PushPrivacy;
  }

  setPrivacy(userId: string, privacy: PushPrivacy): void {
    this.statements.setPrivacy.run(privacy, userId);
  }
}
