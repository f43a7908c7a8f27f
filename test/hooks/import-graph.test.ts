import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { bundleRequires, importGraph } from '../support/import-graph.js';
import { HOOK, NOTIFYCTL } from './support.js';

const SRC = resolve(dirname(HOOK), 'src');
/** The compiled module dist/notify-hook.cjs is bundled from (scripts/bundle-client.mjs). */
const ENTRY = resolve(SRC, 'cli', 'notifyctl', 'hook', 'main.js');
/**
 * What a hook may load: pure rules, paths, the log line format, the HTTP client, the Node.js floor,
 * the project a folder belongs to (found with stat alone; the toast uses it too) and itself.
 */
const ALLOWED = [
  /^domain\//,
  /^config\/paths\.js$/,
  /^log\/logger\.js$/,
  /^log\/log-text\.js$/,
  /^client\//,
  /^cli\/notify\/client-config\.js$/,
  /^cli\/notifyctl\/hook\//,
  /^cli\/runtime\/node-floor\.js$/,
  /^workspace\/project-name\.js$/,
];

describe('hook adapter import graph', () => {
  const graph = importGraph(ENTRY, SRC);

  it('reaches the three payload readers and the transport (the walk sees the graph)', () => {
    for (const file of [
      'domain/hooks/claude.js',
      'domain/hooks/codex.js',
      'domain/hooks/gemini.js',
      'client/transport.js',
    ]) {
      assert.ok(graph.files.includes(file), file);
    }
  });

  it('never imports server code: only domain rules, paths, the log format, the client and itself', () => {
    assert.deepEqual(
      graph.files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file))),
      [],
    );
  });

  it('uses no package but Node built-ins', () => {
    assert.deepEqual(
      graph.packages.filter((name) => !name.startsWith('node:')),
      [],
    );
  });

  it('ships as one bundle that requires nothing but Node built-ins', () => {
    const required = bundleRequires(HOOK);
    assert.ok(required.includes('node:http'));
    assert.deepEqual(
      required.filter((name) => !name.startsWith('node:')),
      [],
    );
  });

  it('is loaded by notifyctl only when the hook command runs', () => {
    const command = readFileSync(resolve(dirname(NOTIFYCTL), 'hook-command.js'), 'utf8');
    const staticImports = [...command.matchAll(/^import .* from '([^']+)'/gm)].map(
      ([, specifier]) => specifier!,
    );
    assert.deepEqual(
      staticImports.filter((specifier) => specifier.includes('/hook/')),
      [],
    );
    assert.match(command, /await import\('\.\/hook\/run-hook\.js'\)/);
  });
});
