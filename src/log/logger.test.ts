import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DailyFileLogger, formatLogLine, logFileName } from './logger.js';

describe('DailyFileLogger', () => {
  it('formats lines as YYYY-MM-DD HH:mm:ss.fff [LEVEL] message in local time, on one line', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 6);
    assert.equal(formatLogLine(at, 'WARN', 'two\nlines'), '2026-01-02 03:04:05.006 [WARN] two\\nlines\n');
    assert.equal(logFileName(at), 'notify-20260102.log');
  });

  it('rotates to a new file at local midnight', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-log-'));
    let now = new Date(2026, 10, 22, 23, 59, 59, 999).getTime();
    const log = new DailyFileLogger(
      dir,
      () => [],
      () => now,
    );
    log.info('before midnight');
    now += 1;
    log.error('after midnight');
    assert.deepEqual(readdirSync(dir).sort(), ['notify-20261122.log', 'notify-20261123.log']);
    assert.match(
      readFileSync(join(dir, 'notify-20261123.log'), 'utf8'),
      /^2026-11-23 00:00:00\.000 \[ERROR\] after midnight\n$/,
    );
    rmSync(dir, { recursive: true });
  });

  it('masks secrets wherever they appear in a message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-log-'));
    const log = new DailyFileLogger(dir, () => ['s3cret']);
    log.warn('GET /v1/x/s3cret?t=s3cret');
    const [file] = readdirSync(dir);
    assert.match(readFileSync(join(dir, file!), 'utf8'), /GET \/v1\/x\/\[redacted\]\?t=\[redacted\]\n$/);
    rmSync(dir, { recursive: true });
  });

  it('knows after a restart that a full file is full, though it ends below the limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-log-'));
    const now = () => new Date(2026, 10, 22, 12).getTime();
    const before = new DailyFileLogger(dir, () => [], now, 400);
    for (let index = 0; index < 10; index++) before.info(`line ${index} ${'x'.repeat(40)}`);
    const file = join(dir, 'notify-20261122.log');
    const full = readFileSync(file, 'utf8');
    assert.ok(full.length < 400, `the file holds ${full.length} bytes`);
    assert.match(
      full,
      /\[WARN\] this log file reached its limit of 0 MiB; the rest of today's lines are dropped\n$/,
    );
    const after = new DailyFileLogger(dir, () => [], now, 400);
    after.info('x');
    after.error(`after the restart ${'x'.repeat(40)}`);
    assert.equal(readFileSync(file, 'utf8'), full);
    rmSync(dir, { recursive: true });
  });

  it('swallows write failures instead of throwing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-log-'));
    const blocked = join(dir, 'not-a-directory');
    writeFileSync(blocked, '');
    const log = new DailyFileLogger(blocked);
    assert.doesNotThrow(() => log.error('nowhere to go'));
    rmSync(dir, { recursive: true });
  });
});
