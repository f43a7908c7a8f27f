import assert from 'node:assert/strict';
import { pushover } from '../../../src/delivery/providers/pushover/pushover.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

const RECEIPT = 'rLqVuqTRh62UzxtmqiaLzQmVcPgiCy';

export const pushoverRig: ProviderRig = {
  kind: pushover,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const appToken = secretValue('a');
    const userKey = secretValue('u');
    const settings = { apiUrl: receiver.url, appToken, userKey };
    return {
      settings,
      secrets: [appToken, userKey],
      refusedSettings: (port) => ({ ...settings, apiUrl: `http://127.0.0.1:${port}` }),
      // The receiver answers as for an emergency message, so a clear has a receipt to cancel.
      set: (failure) =>
        setHttp(receiver, failure, () => ({
          status: 200,
          body: `{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b","receipt":"${RECEIPT}"}`,
        })),
      // Form-encoded: decoded, so the suite reads what the person would see.
      received: () =>
        rawRequests(receiver).map((raw) => {
          const [line, headers, ...body] = raw.split('\n');
          const fields = [...new URLSearchParams(body.join('\n')).values()];
          return [line, headers, ...fields].join('\n');
        }),
      assertDelivered(op, result) {
        assert.deepEqual(result, { outcome: 'delivered', status: 200, reference: RECEIPT });
        // pushover.net/api: POST /1/messages.json, form fields, the token and user key in the body.
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/1/messages.json');
        assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
        assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
          token: appToken,
          user: userKey,
          title: op.notification.title,
          message: `${op.notification.message}\n\nci-agent · notify`,
          priority: '1',
          timestamp: String(Date.parse(op.notification.createdAt) / 1000),
        });
      },
      assertCleared(clear) {
        // pushover.net/api/receipts: POST /1/receipts/{receipt}/cancel.json with the app token.
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, `/1/receipts/${clear.reference ?? ''}/cancel.json`);
        assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), { token: appToken });
      },
      close: () => receiver.close(),
    };
  },
};
