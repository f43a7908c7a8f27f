import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDelivered, type Stored } from './delivery.js';
import {
  MAX_PUSH_PAYLOAD_BYTES,
  pushPayload,
  pushTopic,
  pushTtlSeconds,
  pushUrgency,
} from './push-payload.js';

function stored(overrides: Record<string, unknown> = {}): Stored {
  const checked = checkDelivered({
    title: 'Run this?',
    message: 'npm publish',
    type: 'permission_required',
    priority: 'high',
    status: 'active',
    actions: [{ id: 'allow', label: 'Allow' }],
    created_at: '2026-11-25T17:42:00Z',
    updated_at: '2026-11-25T17:42:00Z',
    ...overrides,
  });
  assert.ok(checked.ok);
  return {
    ...checked.value,
    inboxId: 7,
    installationId: 'i_1',
    notificationId: 'n1',
    lifecycle: 1,
    revision: 1,
    answerAction: null,
    answeredAt: null,
    receivedAt: 0,
  };
}

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;
const answer = { url: 'https://r.example/v1/push/notifications/7/answer', token: `nrt_${'a'.repeat(43)}` };

describe('pushPayload', () => {
  it('never passes 2 KB, whatever the fields hold (escaped controls, astral characters), and never splits a character', () => {
    const heavy = stored({
      title: '\u0001'.repeat(200),
      message: '😀'.repeat(2000),
      project: '\u0002'.repeat(200),
      agent: '𝔄'.repeat(50),
      actions: [1, 2, 3].map((n) => ({ id: `a${n}`, label: '\u0003'.repeat(40) })),
    });
    const text = pushPayload(heavy, { privacy: 'full', answer, shortened: false });
    assert.ok(Buffer.byteLength(text) <= MAX_PUSH_PAYLOAD_BYTES, `${Buffer.byteLength(text)} bytes`);
    const payload = parse(text);
    assert.equal(payload['body'], '', 'the body goes first');
    assert.ok(!/[\ud800-\udbff]$/.test(payload['agent'] as string));
    assert.ok((payload['answer'] as { token: string }).token === answer.token, 'the answer is never cut');
  });

  it('leaves out the answer when nothing can be answered, and the actions once it ended', () => {
    assert.equal(
      parse(pushPayload(stored({ actions: [] }), { privacy: 'full', answer, shortened: false }))['answer'],
      undefined,
    );
    const ended = parse(
      pushPayload(stored({ status: 'resolved' }), { privacy: 'full', answer, shortened: false }),
    );
    assert.deepEqual([ended['status'], ended['actions'], ended['answer']], ['resolved', [], undefined]);
  });
});

describe('push headers', () => {
  it('urgency high for permission requests and critical ones only', () => {
    assert.equal(pushUrgency({ type: 'permission_required', priority: 'low' }), 'high');
    assert.equal(pushUrgency({ type: 'info', priority: 'critical' }), 'high');
    assert.equal(pushUrgency({ type: 'info', priority: 'high' }), 'normal');
  });

  it('TTL until it can no longer be answered (a day after it arrived), a day for an ended one', () => {
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 0), 86_400);
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 86_000_000), 400);
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 90_000_000), 0);
    assert.equal(pushTtlSeconds({ status: 'resolved', receivedAt: 0 }, 90_000_000), 86_400);
  });

  it('one Topic per notification, 32 base64url characters', () => {
    assert.match(pushTopic('i_1', 'n1'), /^[A-Za-z0-9_-]{32}$/);
    assert.equal(pushTopic('i_1', 'n1'), pushTopic('i_1', 'n1'));
    assert.notEqual(pushTopic('i_1', 'n1'), pushTopic('i_2', 'n1'));
  });
});
