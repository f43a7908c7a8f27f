import { agentLabel, senderLine } from '../../../domain/sender-line.js';
import { readDeliveredState, readInstallation } from '../../../domain/relay/relay-protocol.js';
import { sendHttp } from '../../http-delivery.js';
import type {
  ConnectionCheck,
  DeliveryOperation,
  ProviderKind,
  SettingDeclaration,
  SettingValues,
} from '../../provider.js';
import { flag, requiredString } from '../../setting-values.js';
import { relayTarget } from './relay-address.js';

/**
 * A paired Notify relay (docs/relay-protocol.md): `notify relay pair` creates it with the relay's URL
 * and the credential of this machine's installation. A delivery is a PUT of the notification under its
 * own id, so updates replace it and a reopen starts a new lifecycle there; resolve and dismiss set its
 * status. The answers come back through the relay's event stream (src/broker/relay-answers.ts).
 */

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'url',
    required: true,
    secret: false,
    help: "The relay's base URL, e.g. https://relay.example.com (set by notify relay pair).",
    credentialsIn: 'the secret setting credential',
  },
  {
    name: 'allowPrivate',
    type: 'boolean',
    required: false,
    secret: false,
    help: 'Whether the relay may be on this machine or a private network (notify relay pair --allow-private sets it); checked on every connection.',
    default: false,
  },
  {
    name: 'credential',
    type: 'string',
    required: true,
    secret: true,
    help: "This machine's credential for its installation on the relay; notify relay pair sets it when the pairing is approved.",
  },
];

function base(settings: SettingValues): string {
  return requiredString(settings, 'url').replace(/\/+$/, '');
}

/** Where the relay may be reached under its profile's rules; undefined: its URL breaks them. */
async function dispatcherFor(settings: SettingValues) {
  const target = await relayTarget(requiredString(settings, 'url'), flag(settings, 'allowPrivate', false));
  return target.ok ? { dispatcher: target.dispatcher } : undefined;
}

const REFUSED = { outcome: 'reject', reason: 'address_not_allowed' } as const;

function headers(settings: SettingValues, operation: DeliveryOperation): Record<string, string> {
  return {
    authorization: `Bearer ${requiredString(settings, 'credential')}`,
    'content-type': 'application/json',
    'idempotency-key': operation.idempotencyKey,
  };
}

/**
 * The relay's notification: the message is required there, so a title-only route sends who asked
 * instead, and says so (`message_included: false`), so a phone push shows the title only.
 */
function notificationBody(operation: DeliveryOperation): string {
  const n = operation.notification;
  return JSON.stringify({
    title: n.title,
    message: n.message ?? senderLine(n),
    ...(n.message === undefined && { message_included: false }),
    type: n.type,
    priority: n.priority,
    // The phone shows the machine before the agent, as the desk does: "api-box · claude-code".
    agent: [...agentLabel(n)].slice(0, 100).join(''),
    ...(n.project !== undefined && { project: n.project }),
    status: n.status,
    ...(n.revision !== undefined && { revision: n.revision }),
    ...(n.actions !== undefined && { actions: n.actions }),
    created_at: n.createdAt,
    updated_at: n.updatedAt,
  });
}

/** The lifecycle the relay answered with: an answer event must name it to be applied. */
function lifecycleOf(body: string | undefined): string | undefined {
  try {
    const state = readDeliveredState(JSON.parse(body ?? ''));
    return state === undefined ? undefined : String(state.lifecycle);
  } catch {
    return undefined;
  }
}

export const relay: ProviderKind = {
  id: 'relay',
  title: 'Notify relay',
  description:
    'Your own notify-relay: the phone inbox shows each notification live, clears it when it ends, and sends answers back.',
  settings: SETTINGS,
  lifecycle: { update: true, clear: true },
  answersByOwnStream: true,
  async deliver(operation, { settings, signal }) {
    const target = await dispatcherFor(settings);
    if (target === undefined) return REFUSED;
    const path = `${base(settings)}/v1/notifications/${encodeURIComponent(operation.notification.id)}`;
    if (operation.operation === 'clear') {
      const status = operation.notification.status === 'dismissed' ? 'dismissed' : 'resolved';
      const answer = await sendHttp(
        {
          method: 'POST',
          url: `${path}/status`,
          headers: headers(settings, operation),
          body: JSON.stringify({ status }),
        },
        signal,
        target,
      );
      // The relay no longer has it (deleted after 30 days): what the clear wanted is done.
      if (answer.result.outcome === 'reject' && answer.result.status === 404)
        return { outcome: 'delivered', status: 404 };
      return answer.result;
    }
    const answer = await sendHttp(
      { method: 'PUT', url: path, headers: headers(settings, operation), body: notificationBody(operation) },
      signal,
      target,
    );
    if (answer.result.outcome !== 'delivered') return answer.result;
    const reference = lifecycleOf(answer.body);
    return reference === undefined ? answer.result : { ...answer.result, reference };
  },
  async connection({ settings, signal }): Promise<ConnectionCheck> {
    const target = await dispatcherFor(settings);
    if (target === undefined) return { result: REFUSED };
    const answer = await sendHttp(
      {
        method: 'GET',
        url: `${base(settings)}/v1/installation`,
        headers: {
          authorization: `Bearer ${requiredString(settings, 'credential')}`,
          accept: 'application/json',
        },
      },
      signal,
      target,
    );
    const { result } = answer;
    if (result.outcome !== 'delivered') return { result };
    let installation;
    try {
      installation = readInstallation(JSON.parse(answer.body ?? ''));
    } catch {
      installation = undefined;
    }
    return installation === undefined
      ? {
          result: {
            outcome: 'reject',
            reason: 'unexpected_answer',
            ...(result.status !== undefined && { status: result.status }),
          },
        }
      : { result, installation };
  },
};
