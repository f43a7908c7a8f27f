import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { bundleRequires, importGraph } from '../support/import-graph.js';
import { NOTIFY } from '../support/notify-cli.js';

const SRC = resolve(dirname(NOTIFY), 'src');
/** The compiled module the bundle `notify` runs is made from (scripts/bundle-client.mjs). */
const ENTRY = resolve(SRC, 'cli', 'notify', 'main.js');
/** The budget for the client's start-up: built-ins, pure rules, paths, the atomic file write, version, the Node.js floor, itself. */
const ALLOWED = [
  /^domain\//,
  /^config\/(paths|replace-file)\.js$/,
  /^version\.js$/,
  /^client\//,
  /^cli\/notify\//,
  /^cli\/runtime\//,
];

describe('notify import graph', () => {
  const graph = importGraph(ENTRY, SRC);

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

  it('ships the relay commands as a bundle of their own, loaded only by notify relay, also with built-ins only', () => {
    const relayBundle = resolve(dirname(NOTIFY), 'notify-relay-client.cjs');
    assert.match(readFileSync(NOTIFY, 'utf8'), /await import\("\.\/notify-relay-client\.cjs"\)/);
    assert.ok(
      !readFileSync(NOTIFY, 'utf8').includes('function runPair('),
      'the pairing code is not in notify.cjs',
    );
    assert.deepEqual(
      bundleRequires(relayBundle).filter((name) => !name.startsWith('node:')),
      [],
    );
  });

  it('ships as one bundle that requires nothing but Node built-ins', () => {
    const required = bundleRequires(NOTIFY);
    assert.ok(required.includes('node:http'));
    assert.deepEqual(
      required.filter((name) => !name.startsWith('node:')),
      [],
    );
  });
});
