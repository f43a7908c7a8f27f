import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, packTarball, type PackReport } from '../support/packed-package.js';

/** No single file of the package may grow past this (the largest today is the client bundle, ~85 kB). */
const FILE_BUDGET = 200 * 1024;
/** The whole package, unpacked. */
const PACKAGE_BUDGET = 3 * 1024 * 1024;

/** What `npm pack` ships: only what runs, and what the programs point a person to. */
describe('the npm package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-pack-'));
  let pack: PackReport;
  before(async () => {
    pack = await packTarball(dir, { dryRun: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = () => pack.files.map((file) => file.path);

  it('holds no test, bench, test support, source map or TypeScript source', () => {
    const stray = paths().filter(
      (path) =>
        /(^|\/)(test|bench)\//.test(path) ||
        /\.test\.js$/.test(path) ||
        path.endsWith('.map') ||
        (path.endsWith('.ts') && !path.endsWith('.d.ts')) ||
        path.startsWith('src/') ||
        path.startsWith('web/src/'),
    );
    assert.deepEqual(stray, []);
  });

  it('holds the four programs, the bundles, the web page, tones, schema, README, LICENSE and the docs', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const wanted = [
      ...Object.values(manifest.bin),
      'dist/notify-hook.cjs',
      'dist/notify-relay-client.cjs',
      'dist/web/index.html',
      'dist/web/relay/manifest.json',
      'assets/sounds/chime.wav',
      'assets/relay/relay.css',
      'schemas/arc-0.1.schema.json',
      'docs/service.md',
      'docs/agents.md',
      'README.md',
      'LICENSE',
      'package.json',
    ];
    assert.deepEqual(
      wanted.filter((path) => !paths().includes(path)),
      [],
    );
  });

  it(`keeps every file under ${FILE_BUDGET / 1024} kB and the whole under ${PACKAGE_BUDGET / 1024 / 1024} MB`, () => {
    assert.deepEqual(
      pack.files.filter((file) => file.size > FILE_BUDGET).map((file) => `${file.path} (${file.size} bytes)`),
      [],
    );
    assert.ok(pack.unpackedSize < PACKAGE_BUDGET, `the package unpacks to ${pack.unpackedSize} bytes`);
  });

  it('is what the README says, within a tenth: its file count and size', () => {
    const stated =
      /The package\s+holds\s+about\s+(\d+)\s+files,\s+(\d+)\s+kB\s+\((\d+(?:\.\d)?)\s+MB\s+unpacked\)/.exec(
        readFileSync(join(ROOT, 'README.md'), 'utf8'),
      );
    assert.ok(stated, 'the README states the file count and size');
    const near = (said: number, is: number) => Math.abs(said - is) <= is / 10;
    assert.ok(
      near(Number(stated[1]), pack.entryCount),
      `README: ${stated[1]} files; the package: ${pack.entryCount}`,
    );
    assert.ok(
      near(Number(stated[2]), pack.size / 1024),
      `README: ${stated[2]} kB; the tarball: ${pack.size} bytes`,
    );
    assert.ok(
      near(Number(stated[3]), pack.unpackedSize / 1024 / 1024),
      `README: ${stated[3]} MB unpacked; the package: ${pack.unpackedSize} bytes`,
    );
  });
});
