import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, plainHttpWarning } from './plain-http-warning.js';

describe('plainHttpWarning', () => {
  it('tells loopback addresses from the ones other machines reach', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'relay.example.org', '::ffff:10.0.0.1', '128.0.0.1'])
      assert.equal(isLoopbackHost(host), false, host);
  });

  it('warns for plain HTTP beyond loopback only', () => {
    assert.match(plainHttpWarning('0.0.0.0', false) ?? '', /^Warning: serving plain HTTP on 0\.0\.0\.0/);
    assert.equal(plainHttpWarning('0.0.0.0', true), undefined);
    assert.equal(plainHttpWarning('127.0.0.1', false), undefined);
  });
});
