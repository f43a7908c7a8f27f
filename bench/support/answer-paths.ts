import { connectAsync } from 'mqtt';
import { addChannel, listening } from '../../test/channels/channel-support.js';
import { Arrivals } from '../../test/support/arrivals.js';
import { readLog } from '../../test/support/broker-log.js';
import { startBroker, type BrokerProcess } from '../../test/support/broker-process.js';
import { startDiscord } from '../../test/support/discord-api.js';
import { startMatrixApi } from '../../test/support/matrix-api.js';
import { startMosquitto } from '../../test/support/mosquitto.js';
import { startRelay } from '../../test/support/relay-process.js';
import { setUpOperator } from '../../test/support/relay-web.js';
import { startSlack } from '../../test/support/slack-api.js';
import { startTelegramApi } from '../../test/support/telegram-api.js';
import { waitFor } from '../../test/support/wait-for.js';
import { pairAndRoute } from '../relay-inbox-live.js';
import { LiveStream } from './live-stream.js';

/**
 * One way a person answers a waiting request, set up end to end: its own notifyd (routing everything
 * to that one channel), the service's stand-in from test/support, and the person at the far end.
 */
export interface AnswerPath {
  name: string;
  broker: BrokerProcess;
  /**
   * Waits for the next request to show at the far end, then answers Allow there as the person would;
   * performance.now() when it showed and when the answer left.
   */
  answerNext(): Promise<{ shownAt: number; pressedAt: number }>;
  close(): Promise<void>;
}

const MESSAGE_TIMEOUT_MS = 10_000;

/** A notifyd with one provider of `kind` routed everything and listening for answers. */
async function brokerWith(kind: string, settings: Record<string, string>): Promise<BrokerProcess> {
  const broker = await startBroker();
  await listening(broker, await addChannel(broker, kind, settings));
  return broker;
}

async function stopBroker(broker: BrokerProcess): Promise<void> {
  await broker.stop();
  broker.home.cleanup();
}

/** The person's private chat with the bot: its own user may answer. */
const TELEGRAM_CHAT = 4242;

export async function telegramPath(): Promise<AnswerPath> {
  const api = await startTelegramApi();
  const broker = await brokerWith('telegram', {
    botToken: api.token,
    chatId: String(TELEGRAM_CHAT),
    apiUrl: api.url,
  });
  return {
    name: 'Telegram',
    broker,
    async answerNext() {
      const message = await api.nextMessage();
      const shownAt = performance.now();
      api.press(message.message_id, 0, TELEGRAM_CHAT);
      return { shownAt, pressedAt: shownAt };
    },
    close: async () => {
      await stopBroker(broker);
      await api.close();
    },
  };
}

const SLACK_USER = 'U0ALLOWED1';

export async function slackPath(): Promise<AnswerPath> {
  const slack = await startSlack();
  const broker = await brokerWith('slack', {
    botToken: slack.botToken,
    appToken: slack.appToken,
    channel: 'C0AGENTS01',
    allowedUserIds: SLACK_USER,
    apiUrl: slack.apiUrl,
  });
  return {
    name: 'Slack',
    broker,
    async answerNext() {
      const post = await slack.nextMessage();
      const shownAt = performance.now();
      await slack.press(post, slack.buttons(post)[0]!, SLACK_USER);
      return { shownAt, pressedAt: shownAt };
    },
    close: async () => {
      await stopBroker(broker);
      await slack.close();
    },
  };
}

const DISCORD_USER = '1180000000000000111';

export async function discordPath(): Promise<AnswerPath> {
  const discord = await startDiscord();
  const broker = await brokerWith('discord', {
    botToken: discord.botToken,
    channelId: '1180000000000000777',
    allowedUserIds: DISCORD_USER,
    apiUrl: discord.apiUrl,
  });
  return {
    name: 'Discord',
    broker,
    async answerNext() {
      const message = await discord.nextMessage();
      const shownAt = performance.now();
      await discord.press(message, discord.buttons(message)[0]!, DISCORD_USER);
      return { shownAt, pressedAt: shownAt };
    },
    close: async () => {
      await stopBroker(broker);
      await discord.close();
    },
  };
}

const MATRIX_USER = '@alice:example.test';

export async function matrixPath(): Promise<AnswerPath> {
  const api = await startMatrixApi();
  const broker = await brokerWith('matrix', {
    homeserverUrl: api.url,
    accessToken: api.accessToken,
    roomId: api.roomId,
    allowedUserIds: MATRIX_USER,
  });
  return {
    name: 'Matrix',
    broker,
    async answerNext() {
      const message = await api.nextMessage();
      const shownAt = performance.now();
      api.react(message.event_id, '✅', MATRIX_USER);
      return { shownAt, pressedAt: shownAt };
    },
    close: async () => {
      await stopBroker(broker);
      await api.close();
    },
  };
}

const MQTT_USER = 'homeassistant';

/**
 * A real mosquitto; the person is an MQTT client (Home Assistant, a script) that sees each request's
 * retained state under notify/notifications/<id> and publishes its answer to …/<id>/answer.
 */
export async function mqttPath(): Promise<AnswerPath> {
  const mosquitto = await startMosquitto();
  const broker = await brokerWith('mqtt', { url: mosquitto.url, allowedUserIds: MQTT_USER });
  const client = await connectAsync(mosquitto.url, { reconnectPeriod: 0 }, false);
  const seen = new Set<string>();
  const requests = new Arrivals<{ id: string; revision: number; at: number }>();
  client.on('message', (_topic, payload) => {
    const at = performance.now();
    if (payload.length === 0) return;
    const state = JSON.parse(payload.toString('utf8')) as { id: string; revision: number };
    if (seen.has(state.id)) return;
    seen.add(state.id);
    requests.add({ ...state, at });
  });
  await client.subscribeAsync('notify/notifications/+', { qos: 1 });
  return {
    name: 'MQTT',
    broker,
    async answerNext() {
      const request = await requests.next('a request published on MQTT', MESSAGE_TIMEOUT_MS);
      const pressedAt = performance.now();
      await client.publishAsync(
        `notify/notifications/${request.id}/answer`,
        JSON.stringify({ action: 'allow', revision: request.revision, user: MQTT_USER }),
        { qos: 1 },
      );
      return { shownAt: request.at, pressedAt };
    },
    close: async () => {
      await client.endAsync();
      await stopBroker(broker);
      await mosquitto.cleanup();
    },
  };
}

/**
 * The relay: the real notify-relay, paired by the real `notify relay pair`; the person is a phone with
 * the relay's inbox open (its live stream), answering with the inbox's answer call.
 */
export async function relayPath(): Promise<AnswerPath> {
  const relay = await startRelay();
  const broker = await startBroker();
  const web = await setUpOperator(relay);
  await pairAndRoute(broker, relay, web);
  await waitFor(() => readLog(broker.home).includes('event stream open'), 'the relay answer stream');
  const inbox = await LiveStream.open(
    relay.port,
    '/v1/inbox/stream',
    { cookie: web.cookieHeader() },
    'changed',
    'id',
  );
  return {
    name: 'relay',
    broker,
    async answerNext() {
      const { at, data } = await inbox.nextNew(MESSAGE_TIMEOUT_MS);
      const pressedAt = performance.now();
      const answered = await web.inbox('POST', `/v1/inbox/notifications/${String(data['inbox_id'])}/answer`, {
        action: 'allow',
        lifecycle: data['lifecycle'],
        revision: data['revision'],
      });
      if (answered.status !== 200) throw new Error(`the relay refused the answer: ${answered.status}`);
      return { shownAt: at, pressedAt };
    },
    close: async () => {
      inbox.close();
      await stopBroker(broker);
      await relay.cleanup();
    },
  };
}
