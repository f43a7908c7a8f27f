/**
 * The real broker (startBroker, the composition root notifyd uses) with the test provider kinds and a
 * clock the test drives: the system clock plus the offset in NOTIFY_TEST_CLOCK_FILE, read again on
 * SIGUSR2, after which the broker looks at its due times at once (clockChanged). A test moves the
 * broker's time by minutes or hours without waiting for them.
 */
import { readFileSync } from 'node:fs';
import { startBroker } from '../../src/broker/broker.js';
import { resolvePaths } from '../../src/config/paths.js';
import { TEST_KINDS_MODULE } from './test-kinds.js';

const file = process.env['NOTIFY_TEST_CLOCK_FILE'];
let offset = 0;
const readOffset = () => {
  if (file) offset = Number(readFileSync(file, 'utf8'));
};
readOffset();
const broker = await startBroker({
  paths: resolvePaths(),
  clock: () => Date.now() + offset,
  outbound: { kindsModule: TEST_KINDS_MODULE },
});
process.on('SIGUSR2', () => {
  readOffset();
  broker.clockChanged();
  console.log(`clock moved to ${new Date(Date.now() + offset).toISOString()}`);
});
console.log(`Notify listening on http://127.0.0.1:${broker.port}`);
process.once('SIGTERM', () => void broker.stop().then(() => process.exit(0)));
