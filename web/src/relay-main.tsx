import { render } from 'preact';
import { Inbox } from './pages/inbox.js';
import { InboxApiContext } from './parts/inbox-api.js';
import { createRelayInboxApi } from './relay/relay-inbox-api.js';
import { PushPanel, startApp } from './relay/push-panel.js';
import './app.css';

// notify-relay serves this inside its own signed-in page: the session cookie, and the CSRF token the
// page carries in a meta tag (the cookie holding it is HttpOnly).
const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
render(
  <InboxApiContext.Provider value={createRelayInboxApi(csrf)}>
    <Inbox linked={false} />
  </InboxApiContext.Provider>,
  document.getElementById('inbox')!,
);
render(<PushPanel csrf={csrf} />, document.getElementById('alerts')!);
startApp();
