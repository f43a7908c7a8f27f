/**
 * notify-relay's service worker, served at /sw.js with scope / (docs/relay.md "Phone push"): shows each
 * push as a notification (tag = the notification's id, so an update replaces it), answers from its
 * buttons through the push's single-use answer link, and closes the alert when the request ended.
 * Typed here with the few worker interfaces it uses: the page's TypeScript has the DOM's, not a worker's.
 */

interface PushAction {
  id: string;
  label: string;
}

interface Payload {
  id: string;
  lifecycle: number;
  revision: number;
  status: string;
  title: string;
  body: string;
  agent: string;
  project?: string;
  type: string;
  priority: string;
  actions: PushAction[];
  answer?: { url: string; token: string };
}

interface ShownNotification {
  readonly tag: string;
  readonly data: unknown;
  close(): void;
}

interface ShowOptions {
  body?: string;
  tag?: string;
  data?: unknown;
  icon?: string;
  badge?: string;
  requireInteraction?: boolean;
  renotify?: boolean;
  silent?: boolean;
  actions?: { action: string; title: string }[];
}

interface Registration {
  showNotification(title: string, options: ShowOptions): Promise<void>;
  getNotifications(filter?: { tag?: string }): Promise<ShownNotification[]>;
}

interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}

interface ExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}

interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}

interface NotificationEvent extends ExtendableEvent {
  readonly action: string;
  readonly notification: ShownNotification;
}

interface WorkerScope {
  readonly registration: Registration;
  readonly location: { origin: string };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
/** Chrome shows two buttons: with three actions the first two show, and a tap opens the request. */
const MAX_BUTTONS = 2;
/** How long "Allowed" / "Denied" stays before it closes itself. */
const CONFIRMATION_MS = 4000;
const ICON = '/icons/icon-192.png';

const PAST: Record<string, string> = { allow: 'Allowed', allow_always: 'Always allowed', deny: 'Denied' };

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

function payloadOf(event: PushEvent): Payload | undefined {
  try {
    const value = event.data?.json() as Payload | undefined;
    return value && typeof value.id === 'string' && typeof value.title === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function close(tag: string): Promise<void> {
  for (const shown of await worker.registration.getNotifications({ tag })) shown.close();
}

function subtitle(payload: Payload): string {
  return [payload.agent, payload.project].filter((part) => part).join(' · ');
}

async function show(payload: Payload): Promise<void> {
  const registration = worker.registration;
  if (payload.status !== 'active') {
    // Every push must show something: replace the alert, then close it.
    await registration.showNotification(payload.title, {
      tag: payload.id,
      body: payload.status === 'dismissed' ? 'Dismissed' : 'Done',
      silent: true,
      icon: ICON,
    });
    await close(payload.id);
    return;
  }
  const buttons = payload.answer
    ? payload.actions.slice(0, MAX_BUTTONS).map((action) => ({ action: action.id, title: action.label }))
    : [];
  await registration.showNotification(payload.title, {
    tag: payload.id,
    body: payload.body || subtitle(payload),
    data: payload,
    icon: ICON,
    renotify: true,
    requireInteraction: payload.type === 'permission_required',
    actions: buttons,
  });
}

worker.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  event.waitUntil(
    payload
      ? show(payload)
      : worker.registration.showNotification('Notify', {
          body: 'Open the inbox to see what changed.',
          icon: ICON,
        }),
  );
});

async function answer(payload: Payload, action: string): Promise<void> {
  const registration = worker.registration;
  let title: string;
  let body = payload.title;
  try {
    const response = await fetch(payload.answer!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action, token: payload.answer!.token }),
    });
    if (response.ok) {
      const label = payload.actions.find((offered) => offered.id === action)?.label ?? action;
      title = PAST[action] ?? `${label}: sent`;
    } else {
      const refusal = (await response.json().catch(() => ({}))) as { error_description?: string };
      title = 'Not answered';
      body = refusal.error_description ?? `The relay answered ${response.status}.`;
    }
  } catch {
    title = 'Not answered';
    body = 'The relay could not be reached; open the inbox to answer.';
  }
  const answered = title !== 'Not answered';
  await registration.showNotification(title, {
    tag: payload.id,
    body,
    icon: ICON,
    silent: true,
    data: { ...payload, answer: undefined },
  });
  if (!answered) return;
  await new Promise((resolve) => setTimeout(resolve, CONFIRMATION_MS));
  await close(payload.id);
}

async function openInbox(id: string | undefined): Promise<void> {
  const url = `${worker.location.origin}/inbox${id ? `?request=${encodeURIComponent(id)}` : ''}`;
  const open = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inbox = open.find((client) => new URL(client.url).pathname === '/inbox');
  if (inbox) {
    const focused = await inbox.focus();
    await focused.navigate(url);
    return;
  }
  await worker.clients.openWindow(url);
}

worker.addEventListener('notificationclick', (event) => {
  const payload = event.notification.data as Payload | undefined;
  if (event.action && payload?.answer) {
    event.waitUntil(answer(payload, event.action));
    return;
  }
  event.notification.close();
  event.waitUntil(openInbox(payload?.id));
});
