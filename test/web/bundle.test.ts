import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

const WEB = new URL('../../web/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, WEB));
const assets = readdirSync(new URL('assets/', WEB));
const html = read('index.html').toString();

/** `npm run build` writes the page the broker serves (docs/web.md "How it is built"). */
describe('the built web page', () => {
  it('is index.html plus one content-hashed script and stylesheet it names', () => {
    const js = assets.filter((file) => file.endsWith('.js'));
    const css = assets.filter((file) => file.endsWith('.css'));
    assert.equal(js.length, 1);
    assert.equal(css.length, 1);
    assert.match(js[0]!, /^app-[A-Z0-9]{8}\.js$/);
    assert.match(css[0]!, /^app-[A-Z0-9]{8}\.css$/);
    assert.ok(html.includes(`<script type="module" src="assets/${js[0]}"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="assets/${css[0]}" />`));
  });

  it('has no inline script or style, which its Content-Security-Policy would block', () => {
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
  });

  it('loads nothing from elsewhere: every reference in index.html is relative', () => {
    const references = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    assert.deepEqual(
      references.filter((reference) => !reference.startsWith('assets/') && reference !== 'data:,'),
      [],
    );
    for (const file of assets) {
      const urls =
        read(`assets/${file}`)
          .toString()
          .match(/https?:\/\/[^"'`\s)]+/g) ?? [];
      // The XML namespace names Preact sets on SVG and MathML elements are names, never fetched.
      assert.deepEqual(
        urls.filter((url) => !url.startsWith('http://www.w3.org/')),
        [],
        `${file} names a URL`,
      );
    }
  });

  it('keeps its JavaScript within 100 KB gzip', () => {
    const gzipped = assets
      .filter((file) => file.endsWith('.js'))
      .reduce((total, file) => total + gzipSync(read(`assets/${file}`)).length, 0);
    assert.ok(gzipped <= 100 * 1024, `${gzipped} bytes of gzipped JavaScript`);
  });
});
