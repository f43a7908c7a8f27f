import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from './api.js';
import { ApiContext } from './parts/api-context.js';
import { InboxApiContext } from './parts/inbox-api.js';
import { PAGES, useHashRoute, type Route } from './parts/hash-route.js';
import { messageOf } from './parts/use-load.js';
import { History } from './pages/history.js';
import { Inbox } from './pages/inbox.js';
import { NotificationPage } from './pages/notification.js';
import { Outbox } from './pages/outbox.js';
import { Providers } from './pages/providers.js';
import { Routes } from './pages/routes.js';
import { Sessions } from './pages/sessions.js';
import { Settings } from './pages/settings.js';
import { Sounds } from './pages/sounds.js';
import { Types } from './pages/types.js';

interface Props {
  api: Api;
  /** Whether the page must be signed in first (the broker's own page); a bearer-token host skips it. */
  needsSession: boolean;
}

type Gate = 'checking' | 'signed-in' | 'signed-out' | { error: string };

export function App({ api, needsSession }: Props) {
  const [gate, setGate] = useState<Gate>(needsSession ? 'checking' : 'signed-in');
  useEffect(() => {
    if (!needsSession) return;
    api.session().then(
      () => setGate('signed-in'),
      (failure: unknown) =>
        setGate(
          failure instanceof ApiError && failure.status === 401
            ? 'signed-out'
            : { error: messageOf(failure) },
        ),
    );
  }, [api, needsSession]);

  if (gate === 'checking') return null;
  if (gate === 'signed-out') {
    return (
      <main class="signed-out">
        <p>
          Run <code>notifyctl open</code> to sign in.
        </p>
      </main>
    );
  }
  if (typeof gate === 'object') {
    return (
      <main class="signed-out">
        <p role="alert">{gate.error}</p>
      </main>
    );
  }
  return (
    <ApiContext.Provider value={api}>
      <InboxApiContext.Provider value={api}>
        <Shell />
      </InboxApiContext.Provider>
    </ApiContext.Provider>
  );
}

function Shell() {
  const route = useHashRoute();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${titleOf(route)} · Notify`;
    // After a navigation, screen readers and the keyboard continue in the new page, not the menu.
    if (!first.current) main.current?.focus();
    first.current = false;
  }, [route]);
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header>
        <a class="brand" href="#/inbox">
          Notify
        </a>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map(([name, label]) => (
              <li key={name}>
                <a href={`#/${name}`} aria-current={route.page === name ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'notification':
      return <NotificationPage id={route.id} />;
    case 'history':
      return <History />;
    case 'settings':
      return <Settings />;
    case 'types':
      return <Types />;
    case 'sounds':
      return <Sounds />;
    case 'providers':
      return <Providers />;
    case 'routes':
      return <Routes />;
    case 'outbox':
      return <Outbox />;
    case 'sessions':
      return <Sessions />;
    case 'inbox':
      return <Inbox />;
  }
}

function titleOf(route: Route): string {
  return route.page === 'notification'
    ? 'Notification'
    : (PAGES.find(([name]) => name === route.page)?.[1] ?? '');
}
