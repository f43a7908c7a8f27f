import { email } from '../../../src/delivery/providers/email/email.js';
import { operation } from './fixtures.js';

/**
 * Sends one e-mail with the settings in NOTIFY_TEST_EMAIL_SETTINGS and prints the result as JSON. A
 * separate process, because trusting a test CA (NODE_EXTRA_CA_CERTS) only works from process start.
 */
const settings = JSON.parse(process.env.NOTIFY_TEST_EMAIL_SETTINGS ?? '{}') as Record<
  string,
  string | number
>;
const result = await email.deliver(operation(), { settings, signal: AbortSignal.timeout(10_000) });
process.stdout.write(JSON.stringify(result));
