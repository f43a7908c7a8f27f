import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { logFileName, MAX_LOG_FILE_BYTES } from '../../src/log/logger.js';
import { buildRequest, rawRequest } from '../robustness/support.js';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';

const LINE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(INFO|WARN|ERROR)\] [^\r\n\u0085\u2028\u2029]+$/;

const todaysLog = (broker: BrokerProcess) => join(broker.home.logDir, logFileName(new Date()));
const logLines = (broker: BrokerProcess) => readFileSync(todaysLog(broker), 'utf8').trimEnd().split('\n');

/** The last `bytes` of a file, without reading the (possibly huge, sparse) rest. */
function tail(file: string, bytes: number): string {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(Math.min(bytes, size));
  const fd = openSync(file, 'r');
  readSync(fd, buffer, 0, buffer.length, size - buffer.length);
  closeSync(fd);
  return buffer.toString('utf8');
}

describe('the log cannot be flooded or forged', () => {
  it('logs a 15,000-character path once, cut, with its status still on the line', async () => {
    const broker = await startBroker();
    try {
      const response = await fetch(`${broker.baseUrl}/MARK${'a'.repeat(15_000)}`);
      assert.equal(response.status, 404);
      await response.arrayBuffer();
    } finally {
      await broker.stop();
    }
    const line = logLines(broker).find((l) => l.includes('MARK'));
    assert.ok(line, 'the failure is logged');
    assert.equal(line.split('MARK').length - 1, 1, 'the path appears once');
    assert.ok(line.length < 500, `the line holds ${line.length} characters`);
    assert.match(
      line,
      /\[WARN\] GET \/MARKa+\.\.\. \[14705 more characters not logged\] -> 404 no such endpoint$/,
    );
    broker.home.cleanup();
  });

  it('folds the failed requests of a minute beyond the first 20 into one summary line', async () => {
    const broker = await startBroker();
    try {
      for (let index = 0; index < 150; index++) {
        const response = await fetch(`${broker.baseUrl}/v1/notifications`);
        assert.equal(response.status, 401);
        await response.arrayBuffer();
      }
      for (let index = 0; index < 50; index++) {
        const response = await fetch(`${broker.baseUrl}/nowhere`);
        assert.equal(response.status, 404);
        await response.arrayBuffer();
      }
    } finally {
      assert.equal(await broker.stop(), 0);
    }
    const lines = logLines(broker);
    const single = lines.filter((l) => / -> \d{3} /.test(l));
    assert.equal(single.length, 20);
    const summaries = lines.filter((l) => l.includes('more failed requests in the last minute'));
    assert.deepEqual(
      summaries.map((l) => l.replace(/^.*\[WARN\] /, '')),
      ['180 more failed requests in the last minute (401: 130, 404: 50)'],
    );
    assert.match(lines.at(-1)!, /\[INFO\] Notify stopped$/);
    broker.home.cleanup();
  });

  it('keeps every line a line: escape sequences and Unicode line breaks in what clients send are escaped', async () => {
    const broker = await startBroker();
    const forged = 'x\n2026-01-01 00:00:00.000 [ERROR] forged\u0085\u2028\u2029\u001b[2J\r';
    try {
      const response = await broker.request('POST', '/v1/notifications', {
        title: 't',
        message: 'm',
        [forged]: 1,
      });
      assert.equal(response.status, 400);
      await response.arrayBuffer();
      const raw = await rawRequest(
        broker.port,
        buildRequest(broker, 'GET', '/v1/x\u0085y', [['Authorization', `Bearer ${broker.token}`]]),
      );
      assert.ok(raw.status === 400 || raw.status === 404, `answered ${raw.status}`);
    } finally {
      await broker.stop();
    }
    const text = readFileSync(todaysLog(broker), 'utf8');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) assert.match(line, LINE);
    assert.equal(
      lines.filter((l) => /^\S+ \S+ \[ERROR\]/.test(l)).length,
      0,
      'no line starts as a forged ERROR',
    );
    assert.ok(
      text.includes(
        'unknown field "x\\n2026-01-01 00:00:00.000 [ERROR] forged\\x85\\u2028\\u2029\\x1b[2J\\r"',
      ),
      text,
    );
    broker.home.cleanup();
  });

  it("stops a day's log file at its limit with a last line saying the rest is dropped", async () => {
    const home = createTempHome();
    mkdirSync(home.logDir, { recursive: true });
    const file = join(home.logDir, logFileName(new Date()));
    // A sparse file just under the limit: today's earlier lines, without writing 64 MiB.
    truncateSync(openAndClose(file), MAX_LOG_FILE_BYTES - 1500);
    const broker = await startBroker({ home });
    try {
      for (let index = 0; index < 10; index++) {
        const response = await fetch(`${broker.baseUrl}/v1/${'p'.repeat(400)}${index}`);
        assert.equal(response.status, 401);
        await response.arrayBuffer();
      }
      const full = statSync(file).size;
      assert.ok(full <= MAX_LOG_FILE_BYTES, `the file holds ${full} bytes`);
      const last = tail(file, 600).trimEnd().split('\n').at(-1)!;
      assert.match(
        last,
        /\[WARN\] this log file reached its limit of 64 MiB; the rest of today's lines are dropped$/,
      );
      const response = await fetch(`${broker.baseUrl}/v1/more`);
      await response.arrayBuffer();
      assert.equal(await broker.stop(), 0);
      assert.equal(statSync(file).size, full, 'nothing is written after the last line');
      const restarted = await startBroker({ home });
      const afterRestart = await fetch(`${restarted.baseUrl}/v1/after-restart`);
      assert.equal(afterRestart.status, 401);
      await afterRestart.arrayBuffer();
      assert.equal(await restarted.stop(), 0);
      assert.equal(statSync(file).size, full, 'a restarted broker knows the file is full');
    } finally {
      home.cleanup();
    }
  });
});

function openAndClose(file: string): string {
  closeSync(openSync(file, 'w'));
  return file;
}
