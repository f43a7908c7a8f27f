/**
 * The real broker (startBroker, the composition root notifyd uses) with a clock the test moves: the
 * wall clock plus the milliseconds written in NOTIFY_TEST_CLOCK_FILE (read on every look at the
 * time, so a write takes effect with the next request), and the web page served from
 * NOTIFY_TEST_WEB_ROOT when set.
 */
import { readFileSync } from 'node:fs';
import { startBroker } from '../../src/broker/broker.js';
import { resolvePaths } from '../../src/config/paths.js';

const clockFile = process.env['NOTIFY_TEST_CLOCK_FILE'];
const offset = (): number => {
  if (clockFile === undefined) return 0;
  try {
    return Number(readFileSync(clockFile, 'utf8')) || 0;
  } catch {
    return 0;
  }
};
const webRoot = process.env['NOTIFY_TEST_WEB_ROOT'];
const broker = await startBroker({
  paths: resolvePaths(),
  clock: () => Date.now() + offset(),
  ...(webRoot !== undefined && { webRoot }),
});
console.log(`Notify listening on http://127.0.0.1:${broker.port}`);
process.once('SIGTERM', () => void broker.stop().then(() => process.exit(0)));
