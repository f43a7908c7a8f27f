import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteModuleFor } from '../../src/store/sqlite.js';

/** better-sqlite3 13 needs Node-API 10 (Node.js 22.14 and later); 12 serves the Node.js before. */
describe('the SQLite binding for the running Node.js', () => {
  for (const [napi, module] of [
    ['9', 'better-sqlite3-node20'], // Node.js 20, and 22.0-22.13
    ['10', 'better-sqlite3'], // Node.js 22.14 and later, 24
    ['11', 'better-sqlite3'],
    [undefined, 'better-sqlite3-node20'],
  ] as const) {
    it(`Node-API ${napi ?? '(unknown)'} loads ${module}`, () => {
      assert.equal(sqliteModuleFor(napi), module);
    });
  }
});
