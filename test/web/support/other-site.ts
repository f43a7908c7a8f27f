import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A web page from another origin: what a site the person visits could serve to reach the broker. */
export interface OtherSite {
  /** The URL of a page whose form posts itself to `target` as soon as it loads. */
  formPostingTo(target: string): string;
  close(): Promise<void>;
}

export async function startOtherSite(host: '127.0.0.1' | 'localhost'): Promise<OtherSite> {
  const server: Server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://x').searchParams.get('target') ?? '';
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><form method="post" action="${target.replace(/"/g, '&quot;')}">` +
        '<input name="status" value="dismissed"></form>' +
        '<script>document.forms[0].submit()</script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    formPostingTo: (target) => `http://${host}:${port}/?target=${encodeURIComponent(target)}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
