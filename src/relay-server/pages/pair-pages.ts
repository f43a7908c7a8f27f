import type { Pairing } from '../domain/pairing.js';
import type { Installation } from '../store.js';
import { displayUserCode } from '../secrets.js';
import { csrfField, escape, notice, page, type PageFrame } from './html.js';

export function enterCodePage(frame: PageFrame, typed: string, error?: string): string {
  return page(
    frame,
    'Pair a sender',
    `<h1>Pair a sender</h1><p>Enter the code that <code>notify relay pair</code> printed on the sender's terminal.</p>
${error ? notice('error', error) : ''}<form method="get" action="/pair"><label>Code
<input name="code" class="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="20" placeholder="XXXX-XXXX" value="${escape(typed)}"></label>
<button type="submit">Continue</button></form>`,
  );
}

export function confirmPairingPage(frame: PageFrame, pairing: Pairing, now: number): string {
  const minutes = Math.max(1, Math.ceil((pairing.expiresAt - now) / 60_000));
  const decision = (value: 'approve' | 'reject', label: string, style: string): string =>
    `<form method="post" action="/pair">${csrfField(frame.csrf)}<input type="hidden" name="pairing_id" value="${escape(
      pairing.id,
    )}"><input type="hidden" name="decision" value="${value}"><button type="submit" class="${style}">${label}</button></form>`;
  return page(
    frame,
    'Approve this sender?',
    `<h1>Approve this sender?</h1>
<dl class="pairing"><dt>Code</dt><dd class="code" id="pair-code">${escape(displayUserCode(pairing.userCode))}</dd>
<dt>Sender</dt><dd id="pair-sender">${escape(pairing.senderName)}</dd>
${pairing.client ? `<dt>Client</dt><dd>${escape(pairing.client)}</dd>` : ''}</dl>
<p id="pair-account">Signed in as <strong>${escape(frame.user?.username ?? '')}</strong>: approving pairs the sender with this account. If that is not you, sign out instead.</p>
<p>Approve only if this code is the one on your own terminal. The sender will deliver notifications to your inbox and receive your answers. The request expires in ${minutes} min.</p>
<div class="buttons">${decision('approve', 'Approve', 'primary')}${decision('reject', 'Reject', 'danger')}</div>`,
  );
}

/** Revoking cannot be undone: one more press, on a page that says what goes with it. */
export function confirmRevokePage(frame: PageFrame, installation: Installation): string {
  return page(
    frame,
    'Revoke this sender?',
    `<h1>Revoke ${escape(installation.name)}?</h1>
<p>Its credential is refused from now on, its open connections end, and the notifications it delivered are deleted. To use it again, pair it again with <code>notify relay pair</code>.</p>
<div class="buttons"><form method="post" action="/installations/${escape(installation.id)}/revoke">${csrfField(frame.csrf)}<input type="hidden" name="confirm" value="yes"><button type="submit" class="danger">Revoke ${escape(installation.name)}</button></form>
<a href="/installations">Keep it</a></div>`,
  );
}

export function installationsPage(frame: PageFrame, installations: Installation[], message?: string): string {
  const rows = installations
    .map(
      (installation) => `<li class="installation"><div><strong>${escape(installation.name)}</strong>
<span class="muted">${escape(installation.client ?? '')} · paired ${escape(new Date(installation.createdAt).toISOString().slice(0, 16).replace('T', ' '))} UTC · ${escape(installation.id)}</span></div>
<form method="post" action="/installations/${escape(installation.id)}/revoke">${csrfField(frame.csrf)}<button type="submit" class="danger">Revoke</button></form></li>`,
    )
    .join('');
  return page(
    frame,
    'Installations',
    `<h1>Installations</h1>${message ? notice('ok', message) : ''}
<p>Senders paired with your account. Revoking one refuses its credential at once and deletes what it delivered.</p>
${installations.length === 0 ? '<p class="muted">None yet. Run <code>notify relay pair --url …</code> on a sender.</p>' : `<ul class="plain">${rows}</ul>`}`,
  );
}

/** The inbox itself is the web page's inbox (web/src/relay-main.tsx), rendered into #inbox. */
export function inboxPage(frame: PageFrame): string {
  return page(
    frame,
    'Inbox',
    `<div id="inbox"></div><div id="alerts"></div><noscript>The inbox needs JavaScript.</noscript>`,
  );
}
