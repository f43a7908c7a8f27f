import { createHash } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import {
  isAllowedUser,
  NOT_ALLOWED_MESSAGE,
  readUserIdList,
  type ChannelAnswerOutcome,
} from '../../../domain/channel-answer.js';
import type { ListenContext, ListenEnd, SettingValues } from '../../provider.js';
import { openClient } from './mqtt-client.js';
import {
  isWaiting,
  listenTopics,
  outcomeTopic,
  readAnswer,
  readTopic,
  sensorDiscovery,
  waitingTopic,
} from './mqtt-documents.js';
import { homeAssistantOn, topicPrefix } from './mqtt-settings.js';

/** The waiting count is published once the retained states that arrive together have been read. */
const COUNT_SETTLE_MS = 200;
/** The states the count is kept from: beyond this many the oldest are forgotten (a bounded buffer). */
const MAX_TRACKED = 10_000;

/**
 * A persistent session (clean: false) under a client id made from the broker, login and prefix: answers
 * published while notifyd was stopped are kept by the broker and read when it comes back.
 */
function listenerClientId(settings: SettingValues): string {
  const { url, username, topicPrefix: prefix } = settings;
  const digest = createHash('sha256')
    .update(JSON.stringify([url, username, prefix]))
    .digest('hex');
  return `notify-${digest.slice(0, 16)}`;
}

/**
 * Reads answers from <prefix>/notifications/+/answer and keeps <prefix>/waiting: the number of
 * retained states that are requests still waiting, published retained whenever it changes. MQTT names
 * no user per message: the `user` an answer carries is what the sender says, so the broker's ACLs on
 * the answer topic are what protects it; allowedUserIds narrows it further when set.
 */
export async function listenMqtt(context: ListenContext): Promise<ListenEnd> {
  const { settings, signal } = context;
  const prefix = topicPrefix(settings);
  const allowed = readUserIdList(settings['allowedUserIds']);
  const waiting = new Map<string, boolean>();
  let published: number | undefined;
  let countTimer: NodeJS.Timeout | undefined;
  // Set once connected: the count and the outcomes are published on this connection.
  const live: { client?: MqttClient } = {};
  let answers = Promise.resolve();

  const publishCount = () => {
    countTimer = undefined;
    const count = [...waiting.values()].filter(Boolean).length;
    if (count === published || live.client === undefined) return;
    published = count;
    live.client.publish(waitingTopic(prefix), String(count), { qos: 1, retain: true });
  };
  const countChanged = () => {
    clearTimeout(countTimer);
    countTimer = setTimeout(publishCount, COUNT_SETTLE_MS);
  };

  const tell = (notificationId: string, outcome: ChannelAnswerOutcome) =>
    live.client?.publish(outcomeTopic(prefix, notificationId), JSON.stringify(outcome), { qos: 1 });

  const onAnswer = async (notificationId: string, payload: string) => {
    const answer = readAnswer(payload);
    if (answer === undefined) {
      tell(notificationId, {
        kind: 'unknown',
        message: 'Not an answer: send {"action": "<id>", "revision": <n>, "user": "<name>"}.',
      });
      return;
    }
    if (allowed.length > 0 && !isAllowedUser(allowed, answer.user ?? '')) {
      tell(notificationId, { kind: 'not_allowed', message: NOT_ALLOWED_MESSAGE });
      return;
    }
    tell(
      notificationId,
      await context.answer({
        notificationId,
        revision: answer.revision,
        choice: { id: answer.action },
        userId: answer.user ?? '',
      }),
    );
  };

  const onMessage = (topic: string, payload: Buffer, packet: { retain: boolean }) => {
    const about = readTopic(prefix, topic);
    if (about === undefined) return;
    if (about.kind === 'state') {
      waiting.delete(about.notificationId);
      if (payload.length > 0) waiting.set(about.notificationId, isWaiting(payload.toString('utf8')));
      if (waiting.size > MAX_TRACKED) waiting.delete(waiting.keys().next().value!);
      countChanged();
      return;
    }
    // A retained answer is an old one the broker replays to every new subscriber: never applied again.
    if (packet.retain) return;
    const text = payload.toString('utf8');
    answers = answers.then(() => onAnswer(about.notificationId, text)).catch(() => undefined);
  };

  const opened = await openClient(
    settings,
    { clientId: listenerClientId(settings), clean: false },
    signal,
    (connecting) => connecting.on('message', onMessage),
  );
  if ('failure' in opened) {
    if (signal.aborted) return { kind: 'stopped' };
    const { reason, refused } = opened.failure;
    return refused ? { kind: 'refused', reason } : { kind: 'failed', reason };
  }
  const connection = opened.client;
  live.client = connection;
  const end = await new Promise<ListenEnd>((resolve) => {
    signal.addEventListener('abort', () => resolve({ kind: 'stopped' }), { once: true });
    connection.on('close', () => resolve({ kind: 'failed', reason: 'connection_reset' }));
    connection
      .subscribeAsync(listenTopics(prefix), { qos: 1 })
      .then((granted) => {
        if (granted.some((grant) => grant.qos === 128)) {
          resolve({ kind: 'refused', reason: 'mqtt_subscription_refused' });
          return;
        }
        if (homeAssistantOn(settings)) {
          const sensor = sensorDiscovery(prefix);
          connection.publish(sensor.topic, sensor.payload, { qos: 1, retain: true });
        }
        countChanged();
        context.connected();
      })
      .catch(() => resolve({ kind: 'failed', reason: 'connection_reset' }));
  });
  clearTimeout(countTimer);
  await answers;
  if (connection.connected) await connection.endAsync().catch(() => undefined);
  else connection.end(true);
  return signal.aborted ? { kind: 'stopped' } : end;
}
