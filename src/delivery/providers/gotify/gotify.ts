import type { Priority } from '../../../domain/priority.js';
import { bodyText } from '../../body-text.js';
import { sendHttp } from '../../http-delivery.js';
import type { DeliveryOperation, ProviderKind, SettingDeclaration, SettingValues } from '../../provider.js';
import { flag, optionalString, requiredString } from '../../setting-values.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'serverUrl',
    type: 'url',
    required: true,
    secret: false,
    help: 'Your Gotify server, e.g. https://gotify.example.com.',
    credentialsIn: 'the secret setting appToken',
  },
  {
    name: 'appToken',
    type: 'string',
    required: true,
    secret: true,
    help: 'An application token: in the Gotify web UI, Apps, Create application, then copy its token.',
  },
  {
    name: 'clientToken',
    type: 'string',
    required: false,
    secret: true,
    help: 'A client token (Clients, Create client) so Notify can delete a message once it is resolved or dismissed.',
  },
  {
    name: 'markdown',
    type: 'boolean',
    required: false,
    secret: false,
    help: 'Render the message as Markdown in the Gotify apps.',
    default: true,
  },
  {
    name: 'clickUrl',
    type: 'url',
    required: false,
    secret: false,
    help: 'Opened when the notification is tapped in the Android app.',
  },
];

/** Gotify's apps treat 0 as silent, 1-3 low, 4-7 normal, 8 and above as high importance. */
const PRIORITY: Readonly<Record<Priority, number>> = { low: 2, normal: 5, high: 8, critical: 10 };

function serverBase(settings: SettingValues): string {
  return requiredString(settings, 'serverUrl').replace(/\/+$/, '');
}

function messageBody(operation: DeliveryOperation, settings: SettingValues): string {
  const n = operation.notification;
  const click = optionalString(settings, 'clickUrl');
  // Gotify keeps namespaced extras it does not know, so a receiver or plugin can drop duplicates.
  const extras = {
    'notify::delivery': { idempotencyKey: operation.idempotencyKey },
    ...(flag(settings, 'markdown', true) ? { 'client::display': { contentType: 'text/markdown' } } : {}),
    ...(click === undefined ? {} : { 'client::notification': { click: { url: click } } }),
  };
  return JSON.stringify({
    title: n.title,
    message: bodyText(n),
    priority: PRIORITY[n.priority],
    extras,
  });
}

function messageId(body: string | undefined): string | undefined {
  try {
    const id = (JSON.parse(body ?? '') as { id?: unknown }).id;
    return typeof id === 'number' && Number.isInteger(id) ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

export const gotify: ProviderKind = {
  id: 'gotify',
  title: 'Gotify',
  description:
    'A message on your self-hosted Gotify server, deleted when the notification is resolved or dismissed.',
  settings: SETTINGS,
  lifecycle: { update: false, clear: true },
  async deliver(operation, { settings, signal }) {
    if (operation.operation === 'clear') {
      const clientToken = optionalString(settings, 'clientToken');
      if (clientToken === undefined) return { outcome: 'reject', reason: 'client_token_missing' };
      if (operation.reference === undefined || !/^\d+$/.test(operation.reference)) {
        return { outcome: 'reject', reason: 'reference_missing' };
      }
      const url = `${serverBase(settings)}/message/${operation.reference}`;
      const answer = await sendHttp(
        { method: 'DELETE', url, headers: { 'x-gotify-key': clientToken } },
        signal,
      );
      // Someone already deleted it in the app: what the clear wanted is done.
      if (answer.result.outcome === 'reject' && answer.result.status === 404)
        return { outcome: 'delivered', status: 404 };
      return answer.result;
    }
    const answer = await sendHttp(
      {
        method: 'POST',
        url: `${serverBase(settings)}/message`,
        headers: { 'content-type': 'application/json', 'x-gotify-key': requiredString(settings, 'appToken') },
        body: messageBody(operation, settings),
      },
      signal,
    );
    if (answer.result.outcome !== 'delivered') return answer.result;
    const reference = messageId(answer.body);
    return reference === undefined ? answer.result : { ...answer.result, reference };
  },
};
