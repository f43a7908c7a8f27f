import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startBroker } from '../support/broker-process.js';

const LINE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(INFO|WARN|ERROR)\] .+$/;

describe('daily log file', () => {
  it('logs start, each failed request and stop in the spec format, and never the token', async () => {
    const broker = await startBroker();
    const { home, token } = broker;
    try {
      await broker.request('POST', '/v1/notifications', { title: 't' });
      await fetch(`${broker.baseUrl}/v1/notifications/${token}?token=${token}`, {
        headers: { authorization: `Bearer ${token}-wrong` },
      });
      await broker.request('POST', '/v1/notifications', { title: 'ok', message: 'fine' });
    } finally {
      assert.equal(await broker.stop(), 0);
    }
    const files = readdirSync(home.logDir);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^notify-\d{8}\.log$/);
    const text = readFileSync(join(home.logDir, files[0]!), 'utf8');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) assert.match(line, LINE);
    assert.match(lines[0]!, /\[INFO\] Notify \d+\.\d+\.\d+ started on http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(lines.some((l) => l.endsWith('[WARN] POST /v1/notifications -> 400 message is required')));
    assert.ok(lines.some((l) => l.includes('[WARN] GET /v1/notifications/[redacted] -> 401 unauthorized')));
    const requestWarnings = lines.filter(
      (l) => l.includes('[WARN]') && !l.includes('toasts and sounds are off'),
    );
    assert.equal(requestWarnings.length, 2, 'successful requests are not logged');
    assert.match(lines.at(-1)!, /\[INFO\] Notify stopped$/);
    assert.equal(text.includes(token), false);
    home.cleanup();
  });
});
