/**
 * The relay inbox's "Alerts" section (docs/relay.md "Phone push"): turn on alerts for this device (the
 * permission is asked on the tap, never on load), this person's devices with Send test and Remove, and
 * what a lock screen may show. Everything goes through /v1/inbox/push/ with the session and CSRF token.
 */
import { useEffect, useState } from 'preact/hooks';
import { useFeedback } from '../parts/feedback.js';
import { ApiError } from '../api.js';

interface Device {
  id: string;
  name: string;
  added_at: string;
  last_delivery_at?: string;
  last_failure_at?: string;
  last_failure?: string;
}

type Privacy = 'full' | 'title' | 'generic';

const PRIVACY_LABELS: [Privacy, string][] = [
  ['full', 'Full text'],
  ['title', 'Title only'],
  ['generic', '"An agent needs you"'],
];

function when(iso: string | undefined): string {
  return iso === undefined ? 'never' : new Date(iso).toLocaleString();
}

/** A name the person recognises in the list: the browser and the system it runs on. */
function deviceName(): string {
  const agent = navigator.userAgent;
  const system = /iPhone|iPad|Android|Windows|Mac OS X|Linux|CrOS/
    .exec(agent)?.[0]
    ?.replace('Mac OS X', 'macOS');
  const browser = /Edg\/|Firefox\/|Chrome\/|Safari\//
    .exec(agent)?.[0]
    ?.replace(/\/$/, '')
    .replace('Edg', 'Edge');
  return [browser ?? 'Browser', system && `on ${system}`].filter(Boolean).join(' ');
}

function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export function PushPanel({ csrf }: { csrf: string }) {
  const [devices, setDevices] = useState<Device[] | undefined>(undefined);
  const [privacy, setPrivacy] = useState<Privacy>('full');
  const feedback = useFeedback();

  async function call<T>(method: string, path: string, body?: object): Promise<T> {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        'x-csrf-token': csrf,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer = (text ? JSON.parse(text) : {}) as { error_description?: string };
    if (!response.ok)
      throw new ApiError(response.status, answer.error_description ?? 'The relay refused that.');
    return answer as T;
  }

  async function reload(): Promise<void> {
    const listed = await call<{ subscriptions: Device[]; privacy: Privacy }>(
      'GET',
      '/v1/inbox/push/subscriptions',
    );
    setDevices(listed.subscriptions);
    setPrivacy(listed.privacy);
  }

  useEffect(() => {
    void reload().catch(() => setDevices([]));
  }, []);

  const enable = () =>
    feedback.run(async () => {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted')
        return "Alerts are blocked for this site: allow notifications in the browser's site settings, then tap again.";
      const { publicKey } = await call<{ publicKey: string }>('GET', '/v1/inbox/push/key');
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: applicationServerKey(publicKey),
        }));
      await call('POST', '/v1/inbox/push/subscriptions', { ...subscription.toJSON(), name: deviceName() });
      await reload();
      return 'This device gets alerts now.';
    });

  const test = (device: Device) =>
    feedback.run(async () => {
      await call('POST', `/v1/inbox/push/subscriptions/${encodeURIComponent(device.id)}/test`);
      setTimeout(() => void reload(), 2000);
      return `A test alert is on its way to ${device.name}.`;
    });

  const remove = (device: Device) =>
    feedback.run(async () => {
      await call('DELETE', `/v1/inbox/push/subscriptions/${encodeURIComponent(device.id)}`);
      await reload();
      return `${device.name} gets no more alerts.`;
    });

  const choose = (next: Privacy) =>
    feedback.run(async () => {
      await call('PUT', '/v1/inbox/push/privacy', { privacy: next });
      setPrivacy(next);
      return 'Saved.';
    });

  return (
    <section class="push-panel" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alerts</h2>
      <p class="muted">
        Add this page to your home screen (Share → Add to Home Screen on iPhone and iPad, which they need
        before they allow alerts), then turn alerts on from there.
      </p>
      {pushSupported() ? (
        <button type="button" class="primary" onClick={() => void enable()}>
          Alert this device
        </button>
      ) : (
        <p class="muted">This browser cannot show alerts from a web page.</p>
      )}
      <label class="privacy">
        Lock screen shows{' '}
        <select value={privacy} onChange={(event) => void choose(event.currentTarget.value as Privacy)}>
          {PRIVACY_LABELS.map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </label>
      {feedback.view}
      {devices !== undefined && devices.length > 0 && (
        <ul class="devices" aria-label="Devices that get alerts">
          {devices.map((device) => (
            <li class="device" data-id={device.id}>
              <strong>{device.name}</strong>
              <span class="muted">
                added {when(device.added_at)} · last delivery {when(device.last_delivery_at)}
                {device.last_failure_at !== undefined &&
                  ` · last failure ${when(device.last_failure_at)}${device.last_failure ? `: ${device.last_failure}` : ''}`}
              </span>
              <span class="buttons">
                <button type="button" onClick={() => void test(device)}>
                  Send test
                </button>
                <button type="button" class="danger" onClick={() => void remove(device)}>
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Registers the service worker on load (the app installs; nothing is asked) and, opened from an alert
 * (`/inbox?request=<id>`), scrolls to that request once the list shows it.
 */
export function startApp(): void {
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const wanted = new URLSearchParams(location.search).get('request');
  if (!wanted) return;
  void (async () => {
    const response = await fetch('/v1/inbox/notifications', { credentials: 'same-origin' });
    if (!response.ok) return;
    const { notifications } = (await response.json()) as {
      notifications: { id: string; inbox_id: string }[];
    };
    const item = notifications.find((candidate) => candidate.id === wanted);
    if (!item) return;
    for (let tries = 0; tries < 50; tries++) {
      const row = document.querySelector(`li.notification[data-id="${CSS.escape(item.inbox_id)}"]`);
      if (row) {
        row.classList.add('requested');
        row.scrollIntoView({ block: 'center' });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
}
