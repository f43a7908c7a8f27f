import { Worker } from 'node:worker_threads';
import type { DeliveryResult } from '../../delivery/provider.js';
import type { Logger } from '../../log/logger.js';
import type { AttemptRequest, Deliverer } from './deliverer.js';
import type { DeliveryThreadData, FromDeliveryThread, ToDeliveryThread } from './worker-protocol.js';

/**
 * Beyond an attempt's own time-out, how long the main thread waits for the delivery thread's answer:
 * a thread starved of CPU or stuck in a provider still frees the item, which is then retried.
 */
const ANSWER_GRACE_MS = 5000;

interface Pending {
  thread: Worker;
  finish: (result: DeliveryResult) => void;
}

/**
 * Provider calls on one delivery thread (delivery-thread.ts), started by prepare() or the first
 * attempt, and again after it exits. The main thread keeps the database, the secrets and the decisions.
 */
export class WorkerDeliverer implements Deliverer {
  readonly #pending = new Map<number, Pending>();
  #thread: Worker | undefined;
  #lastId = 0;

  constructor(
    private readonly kindsModule: string,
    private readonly log: Pick<Logger, 'error' | 'info'>,
  ) {}

  attempt(request: AttemptRequest, stop: AbortSignal): Promise<DeliveryResult> {
    const thread = this.#thread ?? this.startThread();
    const id = ++this.#lastId;
    const send = (message: ToDeliveryThread) => thread.postMessage(message);
    return new Promise((resolve) => {
      const cancel = () => send({ type: 'cancel', id });
      const cut = setTimeout(() => {
        cancel();
        finish({ outcome: 'retry', reason: 'timeout' });
      }, request.timeoutMs + ANSWER_GRACE_MS);
      const finish = (result: DeliveryResult) => {
        clearTimeout(cut);
        stop.removeEventListener('abort', cancel);
        this.#pending.delete(id);
        resolve(result);
      };
      this.#pending.set(id, { thread, finish });
      send({ type: 'attempt', id, request });
      if (stop.aborted) cancel();
      else stop.addEventListener('abort', cancel, { once: true });
    });
  }

  prepare(): void {
    if (!this.#thread) this.startThread();
  }

  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.terminate();
  }

  private startThread(): Worker {
    const thread = new Worker(new URL('./delivery-thread.js', import.meta.url), {
      workerData: { kindsModule: this.kindsModule } satisfies DeliveryThreadData,
    });
    // The broker's stop closes it; an idle thread alone never keeps the process alive.
    thread.unref();
    thread.on('message', ({ id, result }: FromDeliveryThread) => this.#pending.get(id)?.finish(result));
    thread.on('error', (error) =>
      this.log.error(`outbox: the delivery thread failed (${error.name}); the next attempt starts a new one`),
    );
    thread.on('exit', () => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const pending of [...this.#pending.values()])
        if (pending.thread === thread) pending.finish({ outcome: 'retry', reason: 'delivery_thread_exited' });
    });
    this.#thread = thread;
    this.log.info('outbox: the delivery thread started');
    return thread;
  }
}
