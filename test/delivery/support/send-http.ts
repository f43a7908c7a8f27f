import { sendHttp, type OutboundRequest } from '../../../src/delivery/http-delivery.js';

/**
 * Sends the request in NOTIFY_TEST_OUTBOUND through sendHttp and prints its answer as JSON. A separate
 * process, because trusting a test CA (NODE_EXTRA_CA_CERTS) only works from process start.
 */
const outbound = JSON.parse(process.env.NOTIFY_TEST_OUTBOUND ?? '{}') as OutboundRequest;
const answer = await sendHttp(outbound, AbortSignal.timeout(5000));
process.stdout.write(JSON.stringify(answer));
