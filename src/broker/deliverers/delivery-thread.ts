/**
 * The delivery thread's entry point: runs the dispatcher's provider calls (HTTP, SMTP, the apprise
 * process) off the broker's main thread. On Linux it runs at the lowest CPU priority, so a burst of
 * outbound work never takes the CPU from the API and the database; on an idle machine it gets all it asks.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { attemptWith } from './in-process-deliverer.js';
import {
  importKinds,
  type DeliveryThreadData,
  type FromDeliveryThread,
  type ToDeliveryThread,
} from './worker-protocol.js';

lowerOwnPriority();
const port = parentPort!;
const kinds = await importKinds((workerData as DeliveryThreadData).kindsModule);
const running = new Map<number, AbortController>();

port.on('message', (message: ToDeliveryThread) => {
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  void attemptWith(kinds, message.request, controller.signal).then((result) => {
    running.delete(message.id);
    port.postMessage({ id: message.id, result } satisfies FromDeliveryThread);
  });
});

/**
 * Linux keeps a nice value per thread, and setpriority() takes a thread id where it takes a process id.
 * Elsewhere the thread keeps the process's priority: it still runs beside the main thread.
 */
function lowerOwnPriority(): void {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return;
  }
  setPriority(threadId, constants.priority.PRIORITY_LOW);
}
