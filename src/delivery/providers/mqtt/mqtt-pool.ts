import type { MqttClient } from 'mqtt';
import type { SettingValues } from '../../provider.js';
import { openClient, type Opened } from './mqtt-client.js';

/**
 * The delivery connections, one per broker and login, kept in the delivery thread between attempts:
 * a burst of notifications publishes over one connection instead of connecting for each. A connection
 * unused for IDLE_MS is closed; one that dropped is replaced at the next attempt.
 */

const IDLE_MS = 60_000;

interface Pooled {
  client: MqttClient;
  idle: NodeJS.Timeout;
}

const pool = new Map<string, Pooled>();

/** What tells connections apart: the settings they connect with (held in memory only). */
function poolKey(settings: SettingValues): string {
  const { url, username, password, caFile, rejectUnauthorized } = settings;
  return JSON.stringify([url, username, password, caFile, rejectUnauthorized]);
}

function closeLater(key: string, client: MqttClient): NodeJS.Timeout {
  const idle = setTimeout(() => {
    if (pool.get(key)?.client === client) pool.delete(key);
    client.end(true);
  }, IDLE_MS);
  // An idle connection alone never keeps the thread or the process alive.
  idle.unref();
  return idle;
}

/** A pooled connection (`reused`, which may have died unnoticed) or a new one. */
export async function pooledClient(
  settings: SettingValues,
  signal: AbortSignal,
): Promise<Opened & { reused?: boolean }> {
  const key = poolKey(settings);
  const pooled = pool.get(key);
  if (pooled) {
    clearTimeout(pooled.idle);
    if (pooled.client.connected) {
      pooled.idle = closeLater(key, pooled.client);
      return { client: pooled.client, reused: true };
    }
    pool.delete(key);
    pooled.client.end(true);
  }
  const opened = await openClient(settings, { clean: true }, signal);
  if ('client' in opened) {
    // The broker dropping it is noticed at the next attempt; an error event must not throw.
    opened.client.on('error', () => undefined);
    pool.set(key, { client: opened.client, idle: closeLater(key, opened.client) });
  }
  return opened;
}

/** Closes a connection a publish failed on, so the next attempt connects again. */
export function discard(settings: SettingValues, client: MqttClient): void {
  const key = poolKey(settings);
  const pooled = pool.get(key);
  if (pooled?.client === client) {
    clearTimeout(pooled.idle);
    pool.delete(key);
  }
  client.end(true);
}
