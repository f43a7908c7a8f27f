import type { MqttClient } from 'mqtt';
import type { DeliveryContext, DeliveryOperation, DeliveryResult } from '../../provider.js';
import { buttonDiscovery, stateDocument, stateTopic, type Publication } from './mqtt-documents.js';
import { discard, pooledClient } from './mqtt-pool.js';
import { homeAssistantOn, topicPrefix } from './mqtt-settings.js';

/**
 * One delivery: the notification's state, retained (an empty retained message on clear), and when Home
 * Assistant discovery is on, its buttons (removed once it no longer waits). QoS 1: delivered means
 * the broker acknowledged every message.
 */
export async function deliverMqtt(
  operation: DeliveryOperation,
  { settings, signal }: DeliveryContext,
): Promise<DeliveryResult> {
  const prefix = topicPrefix(settings);
  const notification = operation.notification;
  const topic = stateTopic(prefix, notification.id);
  // The Test action's notification never exists in Notify: it is published, not retained.
  const test = operation.event === 'notification.test';
  const publications: Publication[] = [
    { topic, payload: operation.operation === 'clear' ? '' : stateDocument(notification) },
    ...(homeAssistantOn(settings) && !test ? buttonDiscovery(prefix, notification) : []),
  ];
  // A pooled connection the broker dropped since (a restart, an idle cut) gets one new connection.
  for (let tries = 0; ; tries += 1) {
    const opened = await pooledClient(settings, signal);
    if ('failure' in opened) {
      const { reason, refused } = opened.failure;
      return refused ? { outcome: 'reject', reason } : { outcome: 'retry', reason };
    }
    try {
      await publishAll(opened.client, publications, !test, signal);
      return { outcome: 'delivered', reference: topic };
    } catch {
      discard(settings, opened.client);
      if (signal.aborted) return { outcome: 'retry', reason: 'timeout' };
      if (!opened.reused || tries > 0) return { outcome: 'retry', reason: 'connection_reset' };
    }
  }
}

async function publishAll(
  client: MqttClient,
  publications: Publication[],
  retain: boolean,
  signal: AbortSignal,
) {
  let abort: (() => void) | undefined;
  // Cut by the attempt's time-out, or by the connection closing (mqtt.js would keep QoS 1 messages
  // for a reconnect that never comes, since reconnecting is ours).
  const cut = new Promise<never>((_, reject) => {
    abort = () => reject(new Error('aborted'));
    if (signal.aborted || !client.connected) abort();
    signal.addEventListener('abort', abort, { once: true });
    client.once('close', abort);
  });
  try {
    await Promise.race([
      Promise.all(
        publications.map(({ topic, payload }) => client.publishAsync(topic, payload, { qos: 1, retain })),
      ),
      cut,
    ]);
  } finally {
    signal.removeEventListener('abort', abort!);
    client.off('close', abort!);
  }
}
