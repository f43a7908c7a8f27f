import { readUserIdList } from '../../../domain/channel-answer.js';
import type { DeliveryResult, ProviderKind, SettingDeclaration, SettingValues } from '../../provider.js';
import { optionalString, requiredString } from '../../setting-values.js';
import { listenDiscord } from './discord-gateway.js';
import { discordMessage } from './discord-message.js';
import { callDiscord, DISCORD_API_URL } from './discord-rest.js';

const SNOWFLAKE = /^[0-9]{1,20}$/;

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'botToken',
    type: 'string',
    required: true,
    secret: true,
    help: "The bot's token, from the Developer Portal: your application, Bot, Reset Token.",
  },
  {
    name: 'channelId',
    type: 'string',
    required: true,
    secret: false,
    help: 'The ID of the channel to post to (Developer Mode on, then the channel: Copy Channel ID); the bot must be able to send there.',
    problem: (value) => (SNOWFLAKE.test(value) ? undefined : 'must be a Discord ID: digits only'),
  },
  {
    name: 'allowedUserIds',
    type: 'string',
    required: false,
    secret: false,
    help: 'The Discord user IDs (Copy User ID) whose button presses answer, comma-separated; without any, messages carry no buttons.',
  },
  {
    name: 'apiUrl',
    type: 'url',
    required: false,
    secret: false,
    help: "Discord's HTTP API address; change it only for a stand-in.",
    default: DISCORD_API_URL,
  },
  {
    name: 'gatewayUrl',
    type: 'string',
    required: false,
    secret: false,
    help: 'The Gateway WebSocket address (wss://...); by default Discord names it (GET /gateway/bot).',
    problem: (value) => (/^wss?:\/\/[^\s]+$/.test(value) ? undefined : 'must be a ws:// or wss:// URL'),
  },
];

function apiUrl(settings: SettingValues): string {
  return optionalString(settings, 'apiUrl') ?? DISCORD_API_URL;
}

/** What a send returns and an edit needs: `<channel id>/<message id>`. */
function readReference(reference: string | undefined): { channel: string; message: string } | undefined {
  const [channel, message, extra] = (reference ?? '').split('/');
  if (extra !== undefined || channel === undefined || message === undefined) return undefined;
  return SNOWFLAKE.test(channel) && SNOWFLAKE.test(message) ? { channel, message } : undefined;
}

export const discord: ProviderKind = {
  id: 'discord',
  title: 'Discord',
  description:
    'A Discord bot message with answer buttons, edited to say what happened; answers arrive over the Gateway, no public address needed.',
  settings: SETTINGS,
  lifecycle: { update: true, clear: false },
  async deliver(operation, { settings, signal }): Promise<DeliveryResult> {
    const token = requiredString(settings, 'botToken');
    const body = discordMessage(
      operation.notification,
      readUserIdList(settings['allowedUserIds']).length > 0,
    );
    if (operation.operation === 'send') {
      const channel = requiredString(settings, 'channelId');
      const path = `/channels/${encodeURIComponent(channel)}/messages`;
      const call = await callDiscord(apiUrl(settings), 'POST', path, token, body, signal);
      if (!call.ok) return call.result;
      const { id, channel_id: channelId } = call.body;
      return typeof id === 'string' && typeof channelId === 'string'
        ? { outcome: 'delivered', status: 200, reference: `${channelId}/${id}` }
        : { outcome: 'delivered', status: 200 };
    }
    const reference = readReference(operation.reference);
    if (reference === undefined) return { outcome: 'reject', reason: 'reference_missing' };
    const path = `/channels/${reference.channel}/messages/${reference.message}`;
    const call = await callDiscord(apiUrl(settings), 'PATCH', path, token, body, signal);
    return call.ok ? { outcome: 'delivered', status: 200 } : call.result;
  },
  listen(context) {
    const gatewayUrl = optionalString(context.settings, 'gatewayUrl');
    return listenDiscord(context, {
      apiUrl: apiUrl(context.settings),
      botToken: requiredString(context.settings, 'botToken'),
      ...(gatewayUrl !== undefined && { gatewayUrl }),
      allowedUserIds: readUserIdList(context.settings['allowedUserIds']),
      random: Math.random,
    });
  },
};
