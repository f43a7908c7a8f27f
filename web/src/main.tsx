import { render } from 'preact';
import { createApi } from './api.js';
import { App } from './app.js';
import './app.css';

// The broker serves this page itself: same origin, the session cookie `notifyctl open` set.
const api = createApi({ base: '', auth: 'cookie' });
render(<App api={api} needsSession />, document.getElementById('app')!);
