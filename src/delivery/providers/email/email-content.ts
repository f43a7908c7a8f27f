import type { OutboundNotification } from '../../provider.js';

/** The plain-text and small HTML parts of a notification e-mail; every value is escaped in HTML. */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

function facts(n: OutboundNotification): string[] {
  return [
    `Type: ${n.type}`,
    `Priority: ${n.priority}`,
    `Agent: ${n.agent}`,
    ...(n.project === undefined ? [] : [`Project: ${n.project}`]),
  ];
}

export function emailText(n: OutboundNotification): string {
  const parts = n.message === undefined ? [n.title] : [n.title, '', n.message];
  return [...parts, '', '--', ...facts(n), ''].join('\n');
}

export function emailHtml(n: OutboundNotification): string {
  const message =
    n.message === undefined ? '' : `<p style="white-space:pre-wrap">${escapeHtml(n.message)}</p>\n`;
  const list = facts(n)
    .map((fact) => `<li>${escapeHtml(fact)}</li>`)
    .join('');
  return (
    `<!doctype html>\n<html><body>\n<h2>${escapeHtml(n.title)}</h2>\n${message}` +
    `<ul style="color:#666;font-size:small">${list}</ul>\n</body></html>\n`
  );
}

/** A Message-ID from the idempotency key, so a receiving mail system can drop a retried duplicate. */
export function messageIdFor(idempotencyKey: string): string {
  const local = idempotencyKey.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'notify';
  return `<${local}@notify.localhost>`;
}
