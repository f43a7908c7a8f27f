import assert from 'node:assert/strict';
import { it } from 'node:test';
import { listeningText } from './listening-text.js';

it("says in words whether a channel's answers can reach Notify, and why not", () => {
  assert.equal(listeningText({ state: 'listening' }), 'listening for answers');
  assert.equal(listeningText({ state: 'connecting' }), 'connecting to read answers');
  assert.equal(listeningText({ state: 'retrying', reason: 'http_429' }), 'retrying: http_429');
  assert.equal(
    listeningText({ state: 'refused', reason: 'http_401' }),
    'the service refuses the credentials (http_401); no answers until the provider is changed',
  );
});
