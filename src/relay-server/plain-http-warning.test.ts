import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, plainHttpWarning } from './plain-http-warning.js';

describe('plainHttpWarning', () => {
  it('tells loopback addresses from the ones other machines reach', () => {
    // --host is typed by a person: names in any case, IPv6 in brackets or not.
    const loopback = ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LocalHost', 'relay.LOCALHOST'];
    for (const host of [...loopback, '::ffff:127.0.0.1', '[::FFFF:127.0.0.1]'])
      assert.equal(isLoopbackHost(host), true, host);
    // Look-alikes of loopback that other machines reach.
    const reachable = ['0.0.0.0', '::', '192.168.1.20', 'relay.example.org', '::ffff:10.0.0.1', '128.0.0.1'];
    const lookAlikes = ['mylocalhost', 'localhost.example.org', '1::ffff:127.0.0.1', '::ffff:127a:1', '[::1'];
    for (const host of [...reachable, ...lookAlikes]) assert.equal(isLoopbackHost(host), false, host);
  });

  it('warns for plain HTTP beyond loopback only', () => {
    assert.match(plainHttpWarning('0.0.0.0', false) ?? '', /^Warning: serving plain HTTP on 0\.0\.0\.0/);
    assert.equal(plainHttpWarning('0.0.0.0', true), undefined);
    assert.equal(plainHttpWarning('127.0.0.1', false), undefined);
  });
});
