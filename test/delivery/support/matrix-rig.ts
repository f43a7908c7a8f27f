import assert from 'node:assert/strict';
import { matrix } from '../../../src/delivery/providers/matrix/matrix.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

/**
 * Matrix's client-server API as the conformance suite sees it: PUT
 * /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with a Bearer token, answered with the
 * event id; an edit is another send with m.new_content and an m.replace relation.
 */
export const matrixRig: ProviderRig = {
  kind: matrix,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const accessToken = `syt_${Math.random().toString(36).slice(2)}`;
    const settings = { homeserverUrl: receiver.url, accessToken, roomId: '!room:example.org' };
    const room = `/_matrix/client/v3/rooms/${encodeURIComponent('!room:example.org')}/send/m.room.message/`;
    return {
      settings,
      secrets: [accessToken],
      refusedSettings: (port) => ({ ...settings, homeserverUrl: `http://127.0.0.1:${port}` }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({ status: 200, body: '{"event_id":"$first:example.org"}' })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'PUT');
        assert.ok(request.url.startsWith(room), request.url);
        assert.equal(request.headers.authorization, `Bearer ${accessToken}`);
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.equal(body['msgtype'], 'm.text');
        assert.equal(
          body['body'],
          `${op.notification.title}\n\n${op.notification.message}\n\nci-agent · notify`,
        );
        assert.equal(body['format'], 'org.matrix.custom.html');
        assert.ok(!String(body['formatted_body']).includes('<script>'), 'the HTML body is escaped');
        assert.deepEqual(result, { outcome: 'delivered', reference: '$first:example.org' });
      },
      assertUpdated(update) {
        const request = last(receiver.requests);
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.deepEqual(body['m.relates_to'], { rel_type: 'm.replace', event_id: update.reference });
        assert.ok(
          String((body['m.new_content'] as Record<string, unknown>)['body']).startsWith(
            update.notification.title,
          ),
        );
      },
      close: () => receiver.close(),
    };
  },
};
