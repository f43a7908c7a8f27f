import { render } from 'preact';
import { createApi } from './api.js';
import { App } from './app.js';
import { keptSession, takeSessionFromAddress } from './page-session.js';
import './app.css';

// The broker serves this page itself: same origin, the session a sign-in link (`notifyctl open`) gave.
takeSessionFromAddress();
const api = createApi({ base: '', auth: { session: keptSession } });
render(<App api={api} needsSession />, document.getElementById('app')!);
