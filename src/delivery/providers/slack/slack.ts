import { readUserIdList } from '../../../domain/channel-answer.js';
import type { DeliveryResult, ProviderKind, SettingDeclaration, SettingValues } from '../../provider.js';
import { optionalString, requiredString } from '../../setting-values.js';
import { slackMessage } from './slack-message.js';
import { listenSlack } from './slack-socket.js';
import { callSlack, SLACK_API_URL } from './slack-web-api.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'botToken',
    type: 'string',
    required: true,
    secret: true,
    help: "The app's Bot User OAuth Token (xoxb-...), from OAuth & Permissions after installing the app.",
    problem: (value) => (value.startsWith('xoxb-') ? undefined : 'must be a bot token, starting with xoxb-'),
  },
  {
    name: 'appToken',
    type: 'string',
    required: true,
    secret: true,
    help: 'An app-level token (xapp-...) with the connections:write scope, from Basic Information; it opens Socket Mode for the answers.',
    problem: (value) =>
      value.startsWith('xapp-') ? undefined : 'must be an app-level token, starting with xapp-',
  },
  {
    name: 'channel',
    type: 'string',
    required: true,
    secret: false,
    help: 'The channel to post to: its ID (C0123ABCD, from the channel details) or a user ID for a direct message; invite the app to it.',
  },
  {
    name: 'allowedUserIds',
    type: 'string',
    required: false,
    secret: false,
    help: 'The Slack member IDs (U0123ABCD, from a profile: Copy member ID) whose button presses answer, comma-separated; without any, messages carry no buttons.',
  },
  {
    name: 'apiUrl',
    type: 'url',
    required: false,
    secret: false,
    help: "Slack's Web API address; change it only for a stand-in.",
    default: SLACK_API_URL,
  },
];

function apiUrl(settings: SettingValues): string {
  return optionalString(settings, 'apiUrl') ?? SLACK_API_URL;
}

/** What a send returns and an update needs: the channel's ID (a name is not enough) and the message's ts. */
interface MessageReference {
  channel: string;
  ts: string;
}

function readReference(reference: string | undefined): MessageReference | undefined {
  if (reference === undefined) return undefined;
  try {
    const parsed = JSON.parse(reference) as Partial<MessageReference>;
    return typeof parsed.channel === 'string' && typeof parsed.ts === 'string'
      ? { channel: parsed.channel, ts: parsed.ts }
      : undefined;
  } catch {
    return undefined;
  }
}

export const slack: ProviderKind = {
  id: 'slack',
  title: 'Slack',
  description:
    'A Slack message with answer buttons, edited to say what happened; answers arrive over Socket Mode, no public address needed.',
  settings: SETTINGS,
  lifecycle: { update: true, clear: false },
  async deliver(operation, { settings, signal }): Promise<DeliveryResult> {
    const token = requiredString(settings, 'botToken');
    const message = slackMessage(
      operation.notification,
      readUserIdList(settings['allowedUserIds']).length > 0,
    );
    if (operation.operation === 'send') {
      const payload = { channel: requiredString(settings, 'channel'), ...message, unfurl_links: false };
      const call = await callSlack(apiUrl(settings), 'chat.postMessage', token, payload, signal);
      if (!call.ok) return call.result;
      const { channel, ts } = call.body;
      return typeof channel === 'string' && typeof ts === 'string'
        ? { outcome: 'delivered', status: 200, reference: JSON.stringify({ channel, ts }) }
        : { outcome: 'delivered', status: 200 };
    }
    const reference = readReference(operation.reference);
    if (reference === undefined) return { outcome: 'reject', reason: 'reference_missing' };
    const call = await callSlack(
      apiUrl(settings),
      'chat.update',
      token,
      { ...reference, ...message },
      signal,
    );
    return call.ok ? { outcome: 'delivered', status: 200 } : call.result;
  },
  listen(context) {
    return listenSlack(context, {
      apiUrl: apiUrl(context.settings),
      botToken: requiredString(context.settings, 'botToken'),
      appToken: requiredString(context.settings, 'appToken'),
      allowedUserIds: readUserIdList(context.settings['allowedUserIds']),
    });
  },
};
