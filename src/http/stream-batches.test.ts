import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { StreamEvent } from '../broker/change-stream.js';
import { BATCH_OVERFLOW, StreamBatches } from './stream-batches.js';

const event = (n: number): StreamEvent => ({
  id: `run-${n}`,
  name: 'notification.created',
  data: `{"title":"t${n}"}`,
});

/** The ids of the events in a written chunk, or `reset <id>` for a reset. */
function summary(chunk: string): string[] {
  if (chunk.includes('event: reset')) return [`reset ${/^id: (.*)$/m.exec(chunk)![1]}`];
  return [...chunk.matchAll(/^id: (.*)$/gm)].map((match) => match[1]!);
}

describe('StreamBatches: ?batch of GET /v1/stream', () => {
  let written: string[];
  let batches: StreamBatches;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    written = [];
    batches = new StreamBatches(1000, (text) => written.push(text));
  });
  afterEach(() => {
    batches.close();
    mock.timers.reset();
  });

  it('writes a change after a quiet spell at once, and those that follow within the window together', () => {
    batches.add(event(1));
    assert.deepEqual(written.map(summary), [['run-1']], 'the first at once');
    batches.add(event(2));
    batches.add(event(3));
    mock.timers.tick(999);
    assert.equal(written.length, 1, 'held until the window ends');
    mock.timers.tick(1);
    assert.deepEqual(written.map(summary), [['run-1'], ['run-2', 'run-3']]);
    assert.equal(
      written[1],
      'id: run-2\nevent: notification.created\ndata: {"title":"t2"}\n\n' +
        'id: run-3\nevent: notification.created\ndata: {"title":"t3"}\n\n',
    );
    batches.add(event(4));
    assert.equal(written.length, 2, 'still within the window that the last write opened');
    mock.timers.tick(1000);
    mock.timers.tick(1000);
    batches.add(event(5));
    assert.deepEqual(
      written.map(summary),
      [['run-1'], ['run-2', 'run-3'], ['run-4'], ['run-5']],
      'quiet again: at once',
    );
  });

  it(`sends more than ${BATCH_OVERFLOW} changes in one window as one reset that resumes after the last`, () => {
    batches.add(event(0));
    for (let n = 1; n <= BATCH_OVERFLOW + 1; n++) batches.add(event(n));
    mock.timers.tick(1000);
    assert.deepEqual(written.map(summary), [['run-0'], [`reset run-${BATCH_OVERFLOW + 1}`]]);
    assert.match(
      written[1]!,
      /^data: \{"reason":"more than 100 changes in 1000 ms; list the notifications again"\}$/m,
    );
    for (let n = 1; n <= BATCH_OVERFLOW; n++) batches.add(event(1000 + n));
    mock.timers.tick(1000);
    assert.equal(summary(written[2]!).length, BATCH_OVERFLOW, 'exactly the limit is still sent as events');
  });

  it('writes nothing once closed', () => {
    batches.add(event(1));
    batches.add(event(2));
    batches.close();
    mock.timers.tick(5000);
    assert.deepEqual(written.map(summary), [['run-1']]);
  });
});
