import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { NOTIFY } from '../support/notify-cli.js';

const SRC = resolve(dirname(NOTIFY), 'src');
/** Where the programs that talk to the broker live: notify, notifyctl, the hook adapter, the MCP server. */
const CLIENT_FOLDERS = ['client', 'cli', 'mcp'];
/** The one file that may open connections to the broker: it checks who listens before it sends a byte. */
const TRANSPORT = 'client/transport.js';
/**
 * The one file that may open connections to a relay (`notify relay pair`): a server at the addresses
 * the URL rules let through, spoken to without the broker's token.
 */
const RELAY_TRANSPORT = 'client/relay-transport.js';
/** Modules that can open a connection or speak HTTP. */
const NETWORK_MODULES = /^(node:)?(http|https|http2|net|tls)$|^undici(\/|$)/;
/** Globals that speak HTTP without any import. */
const NETWORK_GLOBALS = /(?<![\w$.])(?:globalThis\.)?fetch\s*\(|\bnew\s+(?:EventSource|WebSocket)\s*\(/;

/** The programs' compiled code; unit tests beside it (`*.test.js`) start their own servers. */
function compiledFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js') && !entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Static imports, re-exports, dynamic imports and requires, by specifier. */
function specifiers(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    ([, specifier]) => specifier!,
  );
}

describe('one transport for every client', () => {
  const files = CLIENT_FOLDERS.flatMap((folder) => compiledFiles(join(SRC, folder))).map((file) => ({
    name: relative(SRC, file),
    code: readFileSync(file, 'utf8'),
  }));

  it('finds the client code it guards (the event stream, the hook, the MCP tools)', () => {
    const names = files.map((file) => file.name);
    for (const name of [
      TRANSPORT,
      'client/event-stream.js',
      'cli/notifyctl/hook/run-hook.js',
      'mcp/attention-tools.js',
    ]) {
      assert.ok(names.includes(name), name);
    }
    assert.ok(
      specifiers(files.find((file) => file.name === TRANSPORT)!.code).includes('node:http'),
      'the transport itself is seen to import node:http',
    );
    assert.ok(
      specifiers(files.find((file) => file.name === RELAY_TRANSPORT)!.code).includes('node:https'),
      'the relay transport is seen to import node:https',
    );
  });

  it('no file but the transports import node:http, https, http2, net, tls or undici', () => {
    const offenders = files.flatMap(({ name, code }) =>
      name === TRANSPORT || name === RELAY_TRANSPORT
        ? []
        : specifiers(code)
            .filter((specifier) => NETWORK_MODULES.test(specifier))
            .map((specifier) => `${name} imports ${specifier}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('no client file calls fetch or opens an EventSource or WebSocket', () => {
    assert.deepEqual(
      files.filter(({ code }) => NETWORK_GLOBALS.test(code)).map(({ name }) => name),
      [],
    );
  });
});
