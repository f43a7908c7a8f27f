/**
 * What the relay's pages load from /assets/: its own stylesheet (assets/relay at the package root) and
 * the inbox, built from the web page's components by `npm run build` (dist/web/relay, named by content
 * hash). Read once at start: dist/src/relay-server/http → the package root and dist/web/relay.
 */
import { readFileSync } from 'node:fs';

export interface Asset {
  type: string;
  text: string;
  /** Named by its content hash: cached for good. */
  immutable: boolean;
}

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const BUILT_INBOX = new URL('../../../web/relay/', import.meta.url);

const read = (url: URL): string => readFileSync(url, 'utf8');

const manifest = JSON.parse(read(new URL('manifest.json', BUILT_INBOX))) as {
  script: string;
  stylesheet: string;
};

export const ASSETS: ReadonlyMap<string, Asset> = new Map([
  [
    'relay.css',
    {
      type: CSS,
      text: read(new URL('../../../../assets/relay/relay.css', import.meta.url)),
      immutable: false,
    },
  ],
  [manifest.script, { type: JS, text: read(new URL(manifest.script, BUILT_INBOX)), immutable: true }],
  [
    manifest.stylesheet,
    { type: CSS, text: read(new URL(manifest.stylesheet, BUILT_INBOX)), immutable: true },
  ],
]);

/** The inbox page's script and stylesheet, as the page names them. */
export const INBOX_ASSETS = {
  script: `/assets/${manifest.script}`,
  stylesheet: `/assets/${manifest.stylesheet}`,
};
