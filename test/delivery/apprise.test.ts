import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, afterEach, before, describe, it } from 'node:test';
import { apprise } from '../../src/delivery/providers/apprise/apprise.js';
import { operation, secretValue } from './support/fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

function commandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // The process ended while we looked.
    }
  }
  return lines;
}

describe('apprise provider', () => {
  const savedPath = process.env.PATH;
  let receiver: HttpReceiver;
  before(async () => {
    receiver = await startHttpReceiver();
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });
  after(() => receiver.close());

  it('rejects with apprise_not_installed when apprise is not on PATH', async () => {
    process.env.PATH = '/nonexistent';
    const result = await apprise.deliver(operation(), {
      settings: { url: `json://127.0.0.1:${receiver.port}/` },
      signal: AbortSignal.timeout(5000),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'apprise_not_installed' });
  });

  it('rejects with apprise_invalid_url, without repeating the URL, when Apprise cannot parse it', async () => {
    const url = `nosuchservice://${secretValue('token-')}`;
    const result = await apprise.deliver(operation(), {
      settings: { url },
      signal: AbortSignal.timeout(10_000),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'apprise_invalid_url' });
  });

  it('keeps the URL out of the command line that other local users can read', async () => {
    const password = secretValue('pw');
    receiver.answer('hang');
    const delivery = apprise.deliver(operation(), {
      settings: { url: `json://notify:${password}@127.0.0.1:${receiver.port}/` },
      signal: AbortSignal.timeout(8000),
    });
    let settled = false;
    void delivery.finally(() => (settled = true));
    const seen: string[] = [];
    const started = receiver.requests.length;
    // Look while apprise runs: until it has posted (it then waits for the answer) or has ended.
    while (receiver.requests.length === started && !settled) {
      seen.push(...commandLines().filter((line) => line.includes('apprise')));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    seen.push(...commandLines().filter((line) => line.includes('apprise')));
    assert.ok(
      seen.some((line) => line.includes('--notification-type')),
      'apprise was not seen running',
    );
    assert.ok(
      seen.every((line) => !line.includes(password)),
      'the URL is on the command line',
    );
    // The receiver never answers: Apprise's own read time-out or ours ends it, a retry either way.
    assert.equal((await delivery).outcome, 'retry');
  });
});
