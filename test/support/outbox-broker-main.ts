/**
 * The real broker (startBroker, the composition root notifyd uses) with the test provider kind added
 * and, when NOTIFY_TEST_FIRST_BACKOFF_MS is set, a short backoff so retries happen within a test (the
 * last attempt's least span shrinks with it, in the same proportion as notifyd's one minute to ten).
 */
import { startBroker } from '../../src/broker/broker.js';
import { resolvePaths } from '../../src/config/paths.js';
import {
  DEFAULT_RETRY_POLICY,
  FIRST_BACKOFF_CAP_MS,
  MIN_SPAN_MS,
} from '../../src/domain/delivery/retry-policy.js';
import { TEST_KINDS_MODULE } from './test-kinds.js';

const backoff = process.env['NOTIFY_TEST_FIRST_BACKOFF_MS'];
const timeout = process.env['NOTIFY_TEST_ATTEMPT_TIMEOUT_MS'];
const broker = await startBroker({
  paths: resolvePaths(),
  outbound: {
    kindsModule: TEST_KINDS_MODULE,
    policy: {
      ...DEFAULT_RETRY_POLICY,
      ...(backoff !== undefined && {
        firstBackoffCapMs: Number(backoff),
        minSpanMs: (Number(backoff) * MIN_SPAN_MS) / FIRST_BACKOFF_CAP_MS,
      }),
      ...(timeout !== undefined && { attemptTimeoutMs: Number(timeout) }),
    },
  },
});
console.log(`Notify listening on http://127.0.0.1:${broker.port}`);
process.once('SIGTERM', () => void broker.stop().then(() => process.exit(0)));
