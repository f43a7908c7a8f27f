import type { DeliveryResult, ProviderKind, SettingDeclaration } from '../../provider.js';
import { callMatrix, roomPath } from './client-api.js';
import { matrixContent } from './matrix-message.js';
import { listenToRoom } from './matrix-sync.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'homeserverUrl',
    type: 'url',
    required: true,
    secret: false,
    help: 'Your homeserver’s client API, e.g. https://matrix.example.org (not the server name after the colon).',
  },
  {
    name: 'accessToken',
    type: 'string',
    required: true,
    secret: true,
    help: 'The access token of the account that posts (a bot account is best): Element, Settings, Help & About, Access token.',
  },
  {
    name: 'roomId',
    type: 'string',
    required: true,
    secret: false,
    help: 'The room to post in, as its id (!abc123:example.org: Element, Room settings, Advanced); the account must have joined it.',
    problem: (value) =>
      /^![^:\s]+:\S+$/.test(value.trim()) ? undefined : 'is not a room id: it looks like !abc123:example.org',
  },
  {
    name: 'allowedUserIds',
    type: 'string',
    required: false,
    secret: false,
    help: 'The Matrix users whose replies and reactions count (@name:example.org), comma-separated.',
  },
];

/** A transaction id from the outbox item's idempotency key: a retried PUT is the same event. */
function txnId(idempotencyKey: string): string {
  return idempotencyKey.replace(/[^A-Za-z0-9._-]/g, '_');
}

export const matrix: ProviderKind = {
  id: 'matrix',
  title: 'Matrix',
  description:
    'Posts to a Matrix room, edits the message when the request changes or ends, and takes the allowed people’s replies and reactions as answers.',
  settings: SETTINGS,
  // The message is edited to say how it ended, never redacted: the room keeps the record.
  lifecycle: { update: true, clear: false },
  async deliver(operation, { settings, signal }): Promise<DeliveryResult> {
    const content = matrixContent(operation.notification);
    const path = roomPath(settings, `send/m.room.message/${txnId(operation.idempotencyKey)}`);
    if (operation.operation === 'send') {
      const reply = await callMatrix(settings, 'PUT', path, signal, content);
      if (!reply.ok) return reply.failure;
      const eventId = reply.body['event_id'];
      return typeof eventId === 'string'
        ? { outcome: 'delivered', reference: eventId }
        : { outcome: 'delivered' };
    }
    if (operation.reference === undefined) return { outcome: 'reject', reason: 'reference_missing' };
    // An edit (m.replace): clients show the new content in place of the first event's.
    const edit = {
      msgtype: 'm.text',
      body: `* ${String(content['body'])}`,
      format: 'org.matrix.custom.html',
      formatted_body: `* ${String(content['formatted_body'])}`,
      'm.new_content': content,
      'm.relates_to': { rel_type: 'm.replace', event_id: operation.reference },
    };
    const reply = await callMatrix(settings, 'PUT', path, signal, edit);
    return reply.ok ? { outcome: 'delivered' } : reply.failure;
  },
  listen: listenToRoom,
};
