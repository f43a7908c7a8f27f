/** Server-rendered pages: every value escaped, no inline script or style (the CSP forbids both). */

export function escape(value: string | number): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface PageFrame {
  relayName: string;
  csrf: string;
  /** Signed in: the navigation and the sign-out button. */
  user?: { username: string; isOperator: boolean };
  /** The page's own script and stylesheet (the inbox), after the relay's stylesheet in the cascade. */
  assets?: { script: string; stylesheet: string };
}

export function page(frame: PageFrame, title: string, body: string): string {
  const nav = frame.user
    ? `<nav><a href="/inbox">Inbox</a><a href="/pair">Pair</a><a href="/installations">Installations</a><a href="/people">People</a><form method="post" action="/sign-out">${csrfField(frame.csrf)}<button type="submit" class="link">Sign out ${escape(
        frame.user.username,
      )}</button></form></nav>`
    : '';
  // The inbox's stylesheet (the web page's) comes first, so the relay's own frame keeps its look.
  const stylesheets = [...(frame.assets ? [frame.assets.stylesheet] : []), '/assets/relay.css']
    .map((href) => `<link rel="stylesheet" href="${escape(href)}">`)
    .join('');
  const script = frame.assets ? `<script type="module" src="${escape(frame.assets.script)}"></script>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${escape(frame.csrf)}"><meta name="theme-color" content="#2456d6">
<link rel="manifest" href="/manifest.webmanifest"><link rel="apple-touch-icon" href="/apple-touch-icon.png"><title>${escape(title)} · ${escape(frame.relayName)}</title>
${stylesheets}${script}</head>
<body><header><span class="brand">${escape(frame.relayName)}</span>${nav}</header>
<main>${body}</main></body></html>
`;
}

export function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escape(csrf)}">`;
}

export function notice(kind: 'error' | 'ok', text: string): string {
  return `<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${escape(text)}</p>`;
}
