// Builds the web page (web/src, docs/web.md) into dist/web: index.html plus content-hashed assets, so the
// broker can serve assets as immutable and index.html as no-cache. Everything the page needs is in
// these files: no CDN, nothing fetched at run time, no inline script or style (the CSP forbids them).
// A second entry builds the relay's inbox from the same components into dist/web/relay, a folder the
// broker does not serve; notify-relay reads its file names from dist/web/relay/manifest.json.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const out = 'dist/web';

async function bundle(name, entry, outdir, entryNames = '[name]-[hash]') {
  const result = await build({
    entryPoints: { [name]: entry },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    outdir,
    entryNames,
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  return (extension) => {
    const found = outputs.find((file) => file.startsWith(`${name}-`) && file.endsWith(extension));
    if (!found) throw new Error(`bundle-web: esbuild wrote no ${name}-*${extension}`);
    return found;
  };
}

const app = await bundle('app', 'web/src/main.tsx', `${out}/assets`);
const html = readFileSync('web/src/index.html', 'utf8')
  .replace('{{js}}', app('.js'))
  .replace('{{css}}', app('.css'));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/index.html`, html);

const relayInbox = await bundle('inbox', 'web/src/relay-main.tsx', `${out}/relay`);
writeFileSync(
  `${out}/relay/manifest.json`,
  `${JSON.stringify({ script: relayInbox('.js'), stylesheet: relayInbox('.css') })}\n`,
);

// The relay's service worker keeps one name: a browser finds it at /sw.js, its scope the whole origin.
await bundle('sw', 'web/src/relay/sw.ts', `${out}/relay`, '[name]');
