// The relay's inbox page: the person's delivered notifications, live. Plain DOM (no innerHTML), so
// the strict Content-Security-Policy holds and nothing delivered can become markup. Its only seam to
// the relay is the JSON API under /v1/inbox/ (docs/relay-protocol.md, Browser API).
'use strict';

const csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
const list = document.getElementById('inbox');
const state = document.getElementById('inbox-state');
const items = new Map();

function say(text) {
  state.textContent = text;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function when(iso) {
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

async function change(item, path, body) {
  const response = await fetch(`/v1/inbox/notifications/${encodeURIComponent(item.inbox_id)}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify({ ...body, lifecycle: item.lifecycle }),
    credentials: 'same-origin',
  });
  if (response.status === 401) {
    location.assign(`/sign-in?next=${encodeURIComponent('/inbox')}`);
    return;
  }
  const answer = await response.json();
  if (!response.ok) {
    say(answer.error_description || 'The relay refused that.');
    return;
  }
  items.set(answer.inbox_id, answer);
  render();
}

function button(label, className, onClick) {
  const node = element('button', className, label);
  node.type = 'button';
  node.addEventListener('click', () => {
    node.disabled = true;
    onClick().finally(() => (node.disabled = false));
  });
  return node;
}

function card(item) {
  const node = element('li', `card ${item.status} priority-${item.priority}`);
  node.dataset.inboxId = item.inbox_id;
  node.dataset.status = item.status;
  const head = element('div', 'card-head');
  head.append(element('strong', 'title', item.title), element('span', `badge ${item.status}`, item.status));
  const origin = [item.agent, item.project, item.installation.name].filter(Boolean).join(' · ');
  node.append(
    head,
    element('div', 'muted', `${origin} · ${when(item.created_at)}`),
    element('p', 'message', item.message),
  );
  if (item.answer) {
    const label =
      (item.actions.find((action) => action.id === item.answer.action) || {}).label || item.answer.action;
    node.append(element('p', 'answer', `Answered: ${label}`));
  }
  if (item.status === 'active') {
    const buttons = element('div', 'buttons');
    for (const action of item.actions) {
      buttons.append(
        button(action.label, 'primary answer-button', () => change(item, 'answer', { action: action.id })),
      );
    }
    buttons.append(
      button('Resolve', 'secondary', () => change(item, 'status', { status: 'resolved' })),
      button('Dismiss', 'secondary', () => change(item, 'status', { status: 'dismissed' })),
    );
    node.append(buttons);
  }
  return node;
}

function render() {
  const sorted = [...items.values()].sort(
    (a, b) =>
      (b.status === 'active') - (a.status === 'active') ||
      b.created_at.localeCompare(a.created_at) ||
      Number(b.inbox_id) - Number(a.inbox_id),
  );
  list.replaceChildren(...sorted.map(card));
  const active = sorted.filter((item) => item.status === 'active').length;
  say(sorted.length === 0 ? 'Nothing delivered yet.' : `${active} active, ${sorted.length - active} done.`);
}

async function load() {
  const response = await fetch('/v1/inbox/notifications', { credentials: 'same-origin' });
  if (response.status === 401) {
    location.assign(`/sign-in?next=${encodeURIComponent('/inbox')}`);
    return;
  }
  const body = await response.json();
  items.clear();
  for (const item of body.notifications) items.set(item.inbox_id, item);
  render();
}

const stream = new EventSource('/v1/inbox/stream');
// Opened or reopened: what changed while the stream was down comes with a fresh list.
stream.addEventListener('open', () => load().catch(() => say('Cannot load the inbox; retrying…')));
stream.addEventListener('error', () => say('Connection lost; reconnecting…'));
stream.addEventListener('changed', (event) => {
  const item = JSON.parse(event.data);
  items.set(item.inbox_id, item);
  render();
});
stream.addEventListener('removed', (event) => {
  const { installation_id: installationId } = JSON.parse(event.data);
  for (const [id, item] of items) if (item.installation.id === installationId) items.delete(id);
  render();
});
