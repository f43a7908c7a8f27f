import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPairing, readPollAnswer, readRelayEvent, readWellKnown } from './relay-protocol.js';

describe('relay protocol shapes (docs/relay-protocol.md)', () => {
  it('reads the well-known document only when it names the service and lists versions', () => {
    assert.deepEqual(readWellKnown({ service: 'notify-relay', name: "Ada's relay", api_versions: ['v1'] }), {
      name: "Ada's relay",
      apiVersions: ['v1'],
    });
    for (const bad of [
      { service: 'other', name: 'x', api_versions: ['v1'] },
      { service: 'notify-relay', api_versions: ['v1'] },
      { service: 'notify-relay', name: 'x', api_versions: 'v1' },
      { service: 'notify-relay', name: 'x', api_versions: [1] },
      [],
      null,
    ])
      assert.equal(readWellKnown(bad), undefined, JSON.stringify(bad));
  });

  it('reads a pairing, defaulting the interval to 5 s, and refuses one without a code or secret', () => {
    const pairing = {
      pairing_id: 'p_1',
      user_code: 'WDJB-MJHT',
      verification_uri: 'https://r.example/pair',
      poll_secret: 'nrp_x',
      expires_in: 600,
    };
    assert.equal(readPairing(pairing)?.interval, 5);
    assert.equal(readPairing({ ...pairing, user_code: 'WDJB' }), undefined);
    assert.equal(readPairing({ ...pairing, poll_secret: '' }), undefined);
    assert.equal(readPairing({ ...pairing, pairing_id: 'p/../1' }), undefined);
    assert.equal(readPairing({ ...pairing, expires_in: -1 }), undefined);
  });

  it('reads every poll status, and an approval only with a credential and an installation', () => {
    for (const status of ['pending', 'rejected', 'expired', 'consumed'])
      assert.deepEqual(readPollAnswer({ status }), { status });
    assert.deepEqual(readPollAnswer({ status: 'slow_down', interval: 10 }), {
      status: 'slow_down',
      interval: 10,
    });
    assert.equal(readPollAnswer({ status: 'approved', credential: 'nrc_x' }), undefined);
    assert.equal(readPollAnswer({ status: 'authorization_pending' }), undefined);
  });

  it('reads answer and status events, and skips event types it does not know', () => {
    const data = JSON.stringify({
      notification_id: 'n1',
      lifecycle: 2,
      action: 'allow',
      status: 'dismissed',
    });
    assert.deepEqual(readRelayEvent('answer', data), {
      kind: 'answer',
      notificationId: 'n1',
      lifecycle: 2,
      action: 'allow',
    });
    assert.deepEqual(readRelayEvent('status', data), {
      kind: 'status',
      notificationId: 'n1',
      lifecycle: 2,
      status: 'dismissed',
    });
    assert.equal(readRelayEvent('changed', data), undefined);
    assert.equal(readRelayEvent('answer', '{not json'), undefined);
    assert.equal(
      readRelayEvent('answer', JSON.stringify({ notification_id: 'n1', lifecycle: '2', action: 'a' })),
      undefined,
    );
  });
});
