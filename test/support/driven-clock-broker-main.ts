/**
 * The real broker (startBroker, the composition root notifyd uses, with the registry's provider kinds)
 * on a clock the test drives: the wall clock plus an offset that starts at NOTIFY_TEST_CLOCK_OFFSET_MS
 * (so a restart goes on from where the last run was) and moves forward by each `{ advanceMs }` message
 * on the IPC channel, answered with `{ offsetMs }` once the broker was told (RunningBroker.clockMoved).
 */
import { startBroker } from '../../src/broker/broker.js';
import { resolvePaths } from '../../src/config/paths.js';

let offsetMs = Number(process.env['NOTIFY_TEST_CLOCK_OFFSET_MS'] ?? 0);
const broker = await startBroker({ paths: resolvePaths(), clock: () => Date.now() + offsetMs });
process.on('message', (message: { advanceMs: number }) => {
  offsetMs += message.advanceMs;
  broker.clockMoved();
  process.send!({ offsetMs });
});
console.log(`Notify listening on http://127.0.0.1:${broker.port}`);
process.once('SIGTERM', () => void broker.stop().then(() => process.exit(0)));
