import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { NOTIFY } from '../support/notify-cli.js';

const SRC = resolve(dirname(NOTIFY), 'src');
/** The compiled module the bundle `notify` runs is made from (scripts/bundle-client.mjs). */
const ENTRY = resolve(SRC, 'cli', 'notify', 'main.js');
/** The budget for the client's start-up: built-ins, pure rules, paths, version, itself. */
const ALLOWED = [/^domain\//, /^config\/paths\.js$/, /^version\.js$/, /^client\//, /^cli\/notify\//];

/** Every module `notify` can load, static and dynamic imports alike, read from the compiled files. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else packages.add(specifier!);
    }
  };
  visit(entry);
  return { files: [...files].map((file) => relative(SRC, file)), packages: [...packages] };
}

describe('notify import graph', () => {
  const graph = importGraph(ENTRY);

  it('reaches every command module (the walk sees dynamic imports)', () => {
    for (const file of ['cli/notify/send.js', 'cli/notify/skill/installer.js', 'client/transport.js']) {
      assert.ok(graph.files.includes(file), file);
    }
  });

  it('never imports server code: only domain rules, paths, version, the client and itself', () => {
    const outside = graph.files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
    assert.deepEqual(outside, []);
  });

  it('uses no package but Node built-ins', () => {
    assert.deepEqual(
      graph.packages.filter((name) => !name.startsWith('node:')),
      [],
    );
  });

  it('ships as one bundle that requires nothing but Node built-ins', () => {
    const required = [...readFileSync(NOTIFY, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map(
      ([, name]) => name!,
    );
    assert.ok(required.includes('node:http'));
    assert.deepEqual(
      required.filter((name) => !name.startsWith('node:')),
      [],
    );
  });
});
