/**
 * The relay's inbox API (docs/relay-protocol.md, Browser API) behind the inbox components' interface:
 * same origin, the session cookie and the page's CSRF token; no bearer credential in the browser.
 */
// The broker's own checks (pure, a few lines) and the relay's item type: one definition of each.
import { isStatus } from '../../../src/domain/notification.js';
import { isPriority } from '../../../src/domain/priority.js';
import type { InboxItem } from '../../../src/relay-server/inbox-item.js';
import { ApiError, type ChangeListener } from '../api.js';
import type { NotificationDto, Status } from '../api-types.js';
import type { InboxApi, InboxNotification } from '../parts/inbox-api.js';

/** Where a signed-out person goes: the sign-in page, coming back to the inbox afterwards. */
const SIGN_IN = `/sign-in?next=${encodeURIComponent('/inbox')}`;

/** An inbox item in the shape the components show; its inbox_id is its id (sender ids may collide). */
function notificationOf(item: InboxItem): InboxNotification {
  return {
    id: item.inbox_id,
    agent: item.agent,
    ...(item.project !== undefined && { project: item.project }),
    type: item.type,
    priority: isPriority(item.priority) ? item.priority : 'normal',
    title: item.title,
    message: item.message,
    status: isStatus(item.status) ? item.status : 'active',
    revision: item.revision,
    // The relay's own receipt time orders and dates the rows: a sender cannot date its rows ahead of the others'.
    createdAt: item.received_at,
    updatedAt: item.updated_at,
    metadata: null,
    actions: item.actions,
    ...(item.answer && {
      answer: { action: item.answer.action, surface: 'relay', answeredAt: item.answer.answered_at },
    }),
    sender: item.installation.name,
  };
}

export function createRelayInboxApi(csrfToken: string): InboxApi {
  /** Each item's lifecycle as last seen: a change names it, so the relay refuses one made on a stale view. */
  const lifecycles = new Map<string, number>();
  let listing: Promise<InboxNotification[]> | undefined;

  const seen = (item: InboxItem): InboxNotification => {
    lifecycles.set(item.inbox_id, item.lifecycle);
    return notificationOf(item);
  };

  async function request<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status === 401) location.assign(SIGN_IN);
    const answer = (await response.json().catch(() => ({}))) as { error_description?: unknown };
    if (!response.ok) {
      const reason = answer.error_description;
      throw new ApiError(response.status, typeof reason === 'string' ? reason : 'The relay refused that.');
    }
    return answer as T;
  }

  /** One request serves both halves of the inbox (active and recent) when they are asked together. */
  function all(): Promise<InboxNotification[]> {
    listing ??= request<{ notifications: InboxItem[] }>('GET', '/v1/inbox/notifications')
      .then((body) => body.notifications.map(seen))
      .finally(() => (listing = undefined));
    return listing;
  }

  async function change(inboxId: string, path: 'answer' | 'status', body: object): Promise<NotificationDto> {
    const lifecycle = lifecycles.get(inboxId);
    return seen(
      await request<InboxItem>('POST', `/v1/inbox/notifications/${encodeURIComponent(inboxId)}/${path}`, {
        ...body,
        lifecycle,
      }),
    );
  }

  const setStatus = (inboxId: string, status: Status) => change(inboxId, 'status', { status });

  return {
    active: async (limit = 100) => (await all()).filter((n) => n.status === 'active').slice(0, limit),
    recent: async (limit: number) => (await all()).filter((n) => n.status !== 'active').slice(0, limit),
    // The relay has no route for one item: the list has it (and the lifecycle a change must name).
    notification: async (inboxId) => {
      const found = (await all()).find((n) => n.id === inboxId);
      if (found === undefined) throw new ApiError(404, 'This notification is no longer in the inbox.');
      return found;
    },
    answer: (inboxId, action, revision) => change(inboxId, 'answer', { action, revision }),
    setStatus,
    dismiss: (inboxId) => setStatus(inboxId, 'dismissed'),
    follow: (listener: ChangeListener) => {
      const stream = new EventSource('/v1/inbox/stream');
      // Not resumable: on every (re)open, what changed while it was down comes with a fresh list.
      stream.addEventListener('open', () => listener('reset', undefined));
      stream.addEventListener('changed', (event) =>
        listener('notification.updated', seen(JSON.parse((event as MessageEvent<string>).data) as InboxItem)),
      );
      // An installation was revoked: its notifications are gone.
      stream.addEventListener('removed', () => listener('reset', undefined));
      // Closed for good (signed out, expired): the next load meets the 401 and goes to sign-in.
      stream.addEventListener('error', () => {
        if (stream.readyState === EventSource.CLOSED) listener('reset', undefined);
      });
      return () => stream.close();
    },
  };
}
