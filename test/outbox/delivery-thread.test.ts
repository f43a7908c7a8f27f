import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { AttemptRequest } from '../../src/broker/deliverers/deliverer.js';
import { WorkerDeliverer } from '../../src/broker/deliverers/worker-deliverer.js';
import { EXITING_KINDS_MODULE } from '../support/exiting-kinds.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { TEST_KINDS_MODULE } from '../support/test-kinds.js';

const request = (url: string, kindId = 'test-http'): AttemptRequest => ({
  kindId,
  operation: {
    operation: 'send',
    event: 'notification.created',
    notification: {
      id: 'n1',
      title: 'Build finished',
      type: 'info',
      priority: 'normal',
      status: 'active',
      agent: 'ci',
      createdAt: '',
      updatedAt: '',
    },
    idempotencyKey: 'n1.r1',
  },
  settings: { url },
  timeoutMs: 15_000,
});

/** A thread's nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
function niceOf(tid: string | number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** Runs `use` with a delivery thread for the kinds of `kindsModule`, closed afterwards. */
async function withDeliverer(
  kindsModule: string,
  use: (deliverer: WorkerDeliverer) => Promise<void>,
): Promise<void> {
  const deliverer = new WorkerDeliverer(kindsModule, { error() {}, info() {} });
  try {
    await use(deliverer);
  } finally {
    await deliverer.close();
  }
}

describe('the delivery thread', () => {
  let receiver: Receiver;
  const open = new AbortController().signal;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('delivers through the provider kind on its own thread, at the lowest CPU priority', () =>
    withDeliverer(TEST_KINDS_MODULE, async (deliverer) => {
      const result = await deliverer.attempt(request(receiver.url), open);
      assert.equal(result.outcome, 'delivered');
      assert.equal(receiver.received.at(-1)!.headers['idempotency-key'], 'n1.r1');
      assert.ok(
        readdirSync('/proc/self/task').some((tid) => niceOf(tid) === 19),
        'no thread at nice 19',
      );
      assert.equal(niceOf(process.pid), 0, 'the main thread kept its priority');
    }));

  it('answers an attempt stopped by the dispatcher as interrupted', async () => {
    receiver.answer = () => ({ status: 200, delayMs: 10_000 });
    try {
      await withDeliverer(TEST_KINDS_MODULE, async (deliverer) => {
        const stop = new AbortController();
        const attempt = deliverer.attempt(request(receiver.url), stop.signal);
        setTimeout(() => stop.abort(), 100);
        assert.deepEqual(await attempt, { outcome: 'retry', reason: 'interrupted' });
      });
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it('rejects an item whose provider kind this build does not have', () =>
    withDeliverer(TEST_KINDS_MODULE, async (deliverer) => {
      assert.deepEqual(await deliverer.attempt(request(receiver.url, 'pager'), open), {
        outcome: 'reject',
        reason: 'provider_kind_unknown',
      });
    }));

  it('retries the attempts of a thread that ended, and starts a new thread for the next ones', () =>
    withDeliverer(EXITING_KINDS_MODULE, async (deliverer) => {
      assert.deepEqual(await deliverer.attempt(request(receiver.url, 'exits'), open), {
        outcome: 'retry',
        reason: 'delivery_thread_exited',
      });
      assert.deepEqual(await deliverer.attempt(request(receiver.url, 'test-http'), open), {
        outcome: 'reject',
        reason: 'provider_kind_unknown',
      });
    }));
});
