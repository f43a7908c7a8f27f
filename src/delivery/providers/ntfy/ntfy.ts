import type { Priority } from '../../../domain/priority.js';
import { bodyText } from '../../body-text.js';
import { sendHttp } from '../../http-delivery.js';
import type {
  AnswerLink,
  DeliveryOperation,
  OutboundNotification,
  ProviderKind,
  SettingDeclaration,
  SettingValues,
} from '../../provider.js';
import { basicAuthorization, optionalString, requiredString } from '../../setting-values.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'serverUrl',
    type: 'url',
    required: true,
    secret: false,
    help: 'The ntfy server, e.g. https://ntfy.sh or your own (in-place updates need ntfy 2.16 or later).',
    default: 'https://ntfy.sh',
    credentialsIn: 'username and the secret password (or the secret accessToken)',
  },
  {
    name: 'topic',
    type: 'string',
    required: true,
    secret: true,
    help: 'The topic your phone subscribes to; on a public server it works like a password, so pick a long one.',
  },
  {
    name: 'accessToken',
    type: 'string',
    required: false,
    secret: true,
    help: 'An access token (tk_...) for a protected topic, from the web app: Account, Access tokens.',
  },
  {
    name: 'username',
    type: 'string',
    required: false,
    secret: false,
    help: 'The user for basic auth on a protected topic (instead of an access token).',
  },
  {
    name: 'password',
    type: 'string',
    required: false,
    secret: true,
    help: 'The password of that user.',
  },
  {
    name: 'clickUrl',
    type: 'url',
    required: false,
    secret: false,
    help: 'Opened when the notification is tapped.',
  },
];

/** ntfy's 1 (min) to 5 (max); 1 is left for nothing we send, so low still shows. */
const PRIORITY: Readonly<Record<Priority, number>> = { low: 2, normal: 3, high: 4, critical: 5 };

/** ntfy renders tags that are emoji short codes as emoji; a custom type id is shown as a plain tag. */
const TYPE_TAGS: Readonly<Record<string, string>> = {
  info: 'information_source',
  success: 'white_check_mark',
  warning: 'warning',
  error: 'rotating_light',
  input_required: 'question',
  permission_required: 'lock',
  completed: 'tada',
  blocked: 'no_entry',
};

/** ntfy's sequence id grammar is [-_A-Za-z0-9]{1,64}; our ids already fit, this keeps any other safe. */
export function ntfySequenceId(notificationId: string): string {
  return notificationId.replace(/[^-_A-Za-z0-9]/g, '_').slice(0, 64) || 'notify';
}

function authorization(settings: SettingValues): Record<string, string> {
  const token = optionalString(settings, 'accessToken');
  if (token !== undefined) return { authorization: `Bearer ${token}` };
  const user = optionalString(settings, 'username');
  if (user !== undefined) {
    return { authorization: basicAuthorization(user, optionalString(settings, 'password') ?? '') };
  }
  return {};
}

function publishBody(
  operation: DeliveryOperation,
  topic: string,
  sequenceId: string,
  click?: string,
): string {
  const n = operation.notification;
  return JSON.stringify({
    topic,
    title: n.title,
    message: bodyText(n),
    priority: PRIORITY[n.priority],
    tags: [TYPE_TAGS[n.type] ?? n.type],
    ...(click === undefined ? {} : { click }),
    ...(operation.answerLink !== undefined &&
      n.actions?.length && { actions: answerButtons(n, operation.answerLink) }),
    sequence_id: sequenceId,
  });
}

/** ntfy shows at most 3 action buttons; the relay holds notifications with at most 3 actions too. */
const MAX_BUTTONS = 3;

/**
 * ntfy `http` actions (docs.ntfy.sh/publish/#action-buttons): the ntfy app posts, from the phone, each
 * choice with the relay's single-use token to its answer link, as a push's answer does, then clears the
 * notification. A newer revision replaces the message (same sequence id) with a fresh token.
 */
function answerButtons(n: OutboundNotification, link: AnswerLink) {
  return (n.actions ?? []).slice(0, MAX_BUTTONS).map((action) => ({
    action: 'http',
    label: action.label,
    url: link.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: action.id, token: link.token }),
    clear: true,
  }));
}

function serverBase(settings: SettingValues): string {
  return requiredString(settings, 'serverUrl').replace(/\/+$/, '');
}

export const ntfy: ProviderKind = {
  id: 'ntfy',
  title: 'ntfy',
  description:
    'Push to the ntfy app on a phone or desktop, updated in place and cleared when the notification ends; with a paired relay its buttons answer.',
  settings: SETTINGS,
  lifecycle: { update: true, clear: true },
  answerButtons: true,
  async deliver(operation, { settings, signal }) {
    const topic = requiredString(settings, 'topic');
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic)) return { outcome: 'reject', reason: 'invalid_topic' };
    const sequenceId = operation.reference ?? ntfySequenceId(operation.notification.id);
    const headers = {
      ...authorization(settings),
      'content-type': 'application/json',
      'idempotency-key': operation.idempotencyKey,
    };
    if (operation.operation === 'clear') {
      const url = `${serverBase(settings)}/${topic}/${encodeURIComponent(sequenceId)}/clear`;
      return (await sendHttp({ method: 'PUT', url, headers }, signal)).result;
    }
    const body = publishBody(operation, topic, sequenceId, optionalString(settings, 'clickUrl'));
    const answer = await sendHttp({ method: 'POST', url: serverBase(settings), headers, body }, signal);
    return answer.result.outcome === 'delivered'
      ? { ...answer.result, reference: sequenceId }
      : answer.result;
  },
};
