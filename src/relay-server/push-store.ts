/** The SQL of phone push: VAPID keys, devices, the durable push queue and the answer tokens. */
import type { Row, SqlDatabase } from './sql-database.js';
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

/** How long a claimed push is its sender's alone: past it, another process (or a restart) sends it. */
export const PUSH_CLAIM_MS = 30_000;

export class PushStore {
  constructor(private readonly db: SqlDatabase) {}

  async vapidKeys(): Promise<VapidKeys | undefined> {
    const row = await this.db.get('SELECT public_key, private_key FROM push_keys WHERE id = 1');
    return row && { publicKey: row['public_key'] as string, privateKey: row['private_key'] as string };
  }

  /** Keeps these keys unless a pair is stored already; the stored pair either way. */
  async keepVapidKeys(keys: VapidKeys, now: number): Promise<VapidKeys> {
    await this.db.run(
      'INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, ?, ?, ?) ON CONFLICT DO NOTHING',
      [keys.publicKey, keys.privateKey, now],
    );
    return (await this.vapidKeys())!;
  }

  async devicesOf(userId: string): Promise<PushDevice[]> {
    return (
      await this.db.all('SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id', [
        userId,
      ])
    ).map(deviceOf);
  }

  async countDevices(userId: string): Promise<number> {
    return (await this.db.get('SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?', [userId]))![
      'n'
    ] as number;
  }

  async deviceByEndpoint(endpoint: string): Promise<PushDevice | undefined> {
    const row = await this.db.get('SELECT * FROM push_subscriptions WHERE endpoint = ?', [endpoint]);
    return row && deviceOf(row);
  }

  async insertDevice(
    id: string,
    userId: string,
    device: NewSubscription,
    origin: string,
    now: number,
  ): Promise<void> {
    await this.db.run(
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name, origin, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, userId, device.endpoint, device.p256dh, device.auth, device.name, origin, now],
    );
  }

  /** The same browser registering again (new keys, another person signed in): it is that device now. */
  async replaceDevice(id: string, userId: string, device: NewSubscription, origin: string): Promise<void> {
    await this.db.run(
      `UPDATE push_subscriptions SET user_id = ?, p256dh = ?, auth = ?, name = ?, origin = ?,
         last_failure = NULL, last_failure_at = NULL WHERE id = ?`,
      [userId, device.p256dh, device.auth, device.name, origin, id],
    );
  }

  async deleteDevice(id: string, userId: string): Promise<boolean> {
    return (
      (await this.db.run('DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?', [id, userId])) === 1
    );
  }

  /** The push service says the device is gone (404/410): it and its queued pushes go. */
  async forgetDevice(id: string): Promise<void> {
    await this.db.run('DELETE FROM push_subscriptions WHERE id = ?', [id]);
  }

  /** A push of this notification to each of the person's devices; one still queued is replaced. */
  enqueueForUser(userId: string, inboxId: number, now: number): Promise<number> {
    return this.db.run(
      `INSERT INTO push_queue (subscription_id, inbox_id, next_attempt_at, created_at)
         SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM push_subscriptions
         WHERE user_id = ?
       ON CONFLICT (subscription_id, inbox_id) DO UPDATE SET generation = push_queue.generation + 1,
         shortened = 0`,
      [inboxId, now, now, userId],
    );
  }

  async enqueueTest(deviceId: string, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO push_queue (subscription_id, inbox_id, next_attempt_at, created_at) VALUES (?, NULL, ?, ?)',
      [deviceId, now, now],
    );
  }

  /**
   * Takes up to `limit` due pushes for this process: each is due again only PUSH_CLAIM_MS later, so a
   * process that dies while sending leaves it to another. On PostgreSQL rows another process is
   * claiming are skipped (FOR UPDATE SKIP LOCKED), so each push goes out once.
   */
  claimDue(now: number, limit: number): Promise<PushJob[]> {
    const skipLocked = this.db.dialect === 'postgres' ? ' FOR UPDATE OF push_queue SKIP LOCKED' : '';
    return this.db.transaction(async () => {
      const rows = await this.db.all(
        `SELECT push_queue.id AS job_id, generation, attempts, shortened, inbox_id, users.push_privacy,
           push_subscriptions.*
         FROM push_queue JOIN push_subscriptions ON push_subscriptions.id = subscription_id
           JOIN users ON users.id = push_subscriptions.user_id
         WHERE next_attempt_at <= ? ORDER BY next_attempt_at, push_queue.id LIMIT ?${skipLocked}`,
        [now, limit],
      );
      for (const row of rows)
        await this.db.run('UPDATE push_queue SET next_attempt_at = ? WHERE id = ?', [
          now + PUSH_CLAIM_MS,
          row['job_id'] as number,
        ]);
      return rows.map((row) => ({
        id: row['job_id'] as number,
        generation: row['generation'] as number,
        attempts: row['attempts'] as number,
        shortened: row['shortened'] === 1,
        inboxId: row['inbox_id'] as number | null,
        device: deviceOf(row),
        privacy: row['push_privacy'] as PushPrivacy,
      }));
    });
  }

  async nextDueAt(): Promise<number | undefined> {
    return ((await this.db.get('SELECT MIN(next_attempt_at) AS at FROM push_queue'))?.['at'] ?? undefined) as
      number | undefined;
  }

  /**
   * Sent: gone from the queue, unless the notification changed meanwhile (then it goes again, now).
   */
  async finish(job: PushJob, now: number): Promise<void> {
    if (
      (await this.db.run('DELETE FROM push_queue WHERE id = ? AND generation = ?', [
        job.id,
        job.generation,
      ])) === 0
    )
      await this.release(job.id, now);
  }

  /** A claimed push not sent (the relay stopping, a shorter one to go): due again at `now`. */
  async release(jobId: number, now: number): Promise<void> {
    await this.db.run('UPDATE push_queue SET next_attempt_at = ? WHERE id = ?', [now, jobId]);
  }

  async drop(jobId: number): Promise<void> {
    await this.db.run('DELETE FROM push_queue WHERE id = ?', [jobId]);
  }

  async retryAt(jobId: number, at: number): Promise<void> {
    await this.db.run('UPDATE push_queue SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?', [
      at,
      jobId,
    ]);
  }

  async shorten(jobId: number, now: number): Promise<void> {
    await this.db.run('UPDATE push_queue SET shortened = 1, next_attempt_at = ? WHERE id = ?', [now, jobId]);
  }

  async recordDelivery(deviceId: string, now: number): Promise<void> {
    await this.db.run('UPDATE push_subscriptions SET last_delivery_at = ? WHERE id = ?', [now, deviceId]);
  }

  async recordFailure(deviceId: string, now: number, why: string): Promise<void> {
    await this.db.run('UPDATE push_subscriptions SET last_failure_at = ?, last_failure = ? WHERE id = ?', [
      now,
      why,
      deviceId,
    ]);
  }

  async insertToken(
    tokenHash: string,
    inboxId: number,
    lifecycle: number,
    revision: number,
    now: number,
  ): Promise<void> {
    await this.db.run(
      'INSERT INTO push_tokens (token_hash, inbox_id, lifecycle, revision, created_at) VALUES (?, ?, ?, ?, ?)',
      [tokenHash, inboxId, lifecycle, revision, now],
    );
  }

  async token(tokenHash: string): Promise<AnswerToken | undefined> {
    const row = await this.db.get(
      'SELECT inbox_id, lifecycle, revision, used_at FROM push_tokens WHERE token_hash = ?',
      [tokenHash],
    );
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
  async useToken(tokenHash: string, now: number): Promise<boolean> {
    return (
      (await this.db.run('UPDATE push_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [
        now,
        tokenHash,
      ])) === 1
    );
  }

  async privacy(userId: string): Promise<PushPrivacy> {
    return ((await this.db.get('SELECT push_privacy FROM users WHERE id = ?', [userId]))?.['push_privacy'] ??
      'full') as PushPrivacy;
  }

  async setPrivacy(userId: string, privacy: PushPrivacy): Promise<void> {
    await this.db.run('UPDATE users SET push_privacy = ? WHERE id = ?', [privacy, userId]);
  }
}
