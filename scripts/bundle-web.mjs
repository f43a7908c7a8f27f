// Builds the web page (web/src, docs/web.md) into dist/web: index.html plus content-hashed assets, so the
// broker can serve assets as immutable and index.html as no-cache. Everything the page needs is in
// these files: no CDN, nothing fetched at run time, no inline script or style (the CSP forbids them).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const out = 'dist/web';
const result = await build({
  entryPoints: { app: 'web/src/main.tsx' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  outdir: `${out}/assets`,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const asset = (extension) => {
  const found = outputs.find((file) => file.startsWith('app-') && file.endsWith(extension));
  if (!found) throw new Error(`bundle-web: esbuild wrote no app-*${extension}`);
  return found;
};
const html = readFileSync('web/src/index.html', 'utf8')
  .replace('{{js}}', asset('.js'))
  .replace('{{css}}', asset('.css'));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/index.html`, html);
