import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAILED_REQUESTS_LOGGED_PER_MINUTE, FailedRequestLog } from './failed-requests.js';
import type { Logger } from './logger.js';

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => void lines.push(message);
  return { lines, info: keep, warn: keep, error: keep };
}

describe('FailedRequestLog', () => {
  it('logs the first 20 failures of a minute and summarizes the rest by status when asked', () => {
    const log = recorder();
    const failures = new FailedRequestLog(log, () => 1_000);
    for (let index = 0; index < 25; index++) failures.record(401, `GET /v1/x${index} -> 401 unauthorized`);
    failures.record(404, 'GET /nowhere -> 404 no such endpoint');
    assert.equal(log.lines.length, FAILED_REQUESTS_LOGGED_PER_MINUTE);
    failures.flush();
    assert.equal(log.lines.at(-1), '6 more failed requests in the last minute (401: 5, 404: 1)');
  });

  it('writes the summary when a failure arrives after the minute, then logs that one in full', () => {
    const log = recorder();
    let now = 0;
    const failures = new FailedRequestLog(log, () => now);
    for (let index = 0; index < 21; index++) failures.record(421, `line ${index}`);
    now = 60_000;
    failures.record(400, 'the next minute');
    assert.deepEqual(log.lines.slice(-2), [
      '1 more failed request in the last minute (421: 1)',
      'the next minute',
    ]);
  });

  it('writes no summary for a minute in which nothing was held back', () => {
    const log = recorder();
    const failures = new FailedRequestLog(log, () => 0);
    failures.record(401, 'only one');
    failures.flush();
    assert.deepEqual(log.lines, ['only one']);
  });
});
