import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerRefusal,
  checkDelivered,
  putEffect,
  revisionAfter,
  type Delivered,
  type Stored,
} from './delivery.js';

const BODY = {
  title: 'Run this?',
  message: 'npm publish',
  status: 'active',
  actions: [{ id: 'allow', label: 'Allow' }],
  created_at: '2026-11-25T17:42:00Z',
  updated_at: '2026-11-25T17:42:00Z',
};

function stored(overrides: Partial<Stored> = {}): Stored {
  const checked = checkDelivered(BODY);
  assert.ok(checked.ok);
  return {
    ...checked.value,
    inboxId: 1,
    installationId: 'i_1',
    notificationId: 'n1',
    lifecycle: 1,
    revision: 1,
    answerAction: null,
    answeredAt: null,
    receivedAt: 0,
    ...overrides,
  };
}

describe('checkDelivered', () => {
  it('fills the defaults and normalizes the times', () => {
    const checked = checkDelivered(BODY);
    assert.ok(checked.ok);
    assert.equal(checked.value.type, 'info');
    assert.equal(checked.value.priority, 'normal');
    assert.equal(checked.value.agent, 'unknown');
    assert.equal(checked.value.project, null);
    assert.equal(checked.value.createdAt, '2026-11-25T17:42:00.000Z');
  });

  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['an empty title', { title: '' }, /^title/],
    ['a type against the grammar', { type: 'Build Done' }, /^type/],
    [
      'duplicate action ids',
      {
        actions: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B' },
        ],
      },
      /^actions/,
    ],
    ['a blank action label', { actions: [{ id: 'a', label: '  ' }] }, /^actions/],
    ['an updated_at that is no time', { updated_at: 'soon' }, /^updated_at/],
  ];
  for (const [what, change, message] of refused) {
    it(`refuses ${what}`, () => {
      const checked = checkDelivered({ ...BODY, ...change });
      assert.equal(checked.ok, false);
      assert.match((checked as { message: string }).message, message);
    });
  }
});

describe('putEffect', () => {
  const incoming = (overrides: Partial<Delivered> = {}): Delivered => ({ ...stored(), ...overrides });
  it('insert, update in place, new lifecycle on reopening, stale for an older state', () => {
    assert.equal(putEffect(undefined, incoming()), 'insert');
    assert.equal(putEffect(stored(), incoming({ title: 'x' })), 'update');
    assert.equal(putEffect(stored(), incoming({ status: 'resolved' })), 'update');
    assert.equal(putEffect(stored({ status: 'dismissed' }), incoming()), 'new_lifecycle');
    assert.equal(putEffect(stored({ status: 'resolved' }), incoming({ status: 'resolved' })), 'update');
    assert.equal(putEffect(stored(), incoming({ updatedAt: '2026-11-25T17:00:00.000Z' })), 'stale');
  });
});

describe('answerRefusal', () => {
  it('accepts one offered action, once, while active, for this lifecycle', () => {
    assert.equal(answerRefusal(stored(), 'allow', 1, 1), undefined);
    assert.equal(answerRefusal(stored(), 'deny', 1, 1), 'unknown_action');
    assert.equal(answerRefusal(stored(), 'allow', 2, 1), 'other_lifecycle');
    assert.equal(answerRefusal(stored({ status: 'dismissed' }), 'allow', 1, 1), 'not_active');
    assert.equal(
      answerRefusal(stored({ status: 'resolved', answerAction: 'allow' }), 'allow', 1, 1),
      'answered',
    );
  });

  it('refuses an answer to a revision the inbox no longer shows', () => {
    assert.equal(answerRefusal(stored({ revision: 2 }), 'allow', 1, 1), 'other_revision');
    assert.equal(answerRefusal(stored({ revision: 2 }), 'allow', 1, 2), undefined);
  });
});

describe('revisionAfter', () => {
  const incoming = (overrides: Partial<Delivered> = {}): Delivered => ({ ...stored(), ...overrides });
  it('counts a change of what the inbox shows or answers, a new sender revision and a new lifecycle', () => {
    const changes: [string, Partial<Delivered>][] = [
      ['message', { message: 'curl https://example.com/x | sh' }],
      ['title', { title: 'Run that?' }],
      ['actions', { actions: [{ id: 'allow', label: 'Yes' }] }],
      ['priority', { priority: 'high' }],
      ['project', { project: 'other' }],
      ["sender's revision", { senderRevision: 4 }],
    ];
    for (const [what, change] of changes)
      assert.equal(revisionAfter(stored({ revision: 3 }), incoming(change), 'update'), 4, what);
    assert.equal(revisionAfter(stored({ revision: 3 }), incoming({ updatedAt: 'later' }), 'update'), 3);
    assert.equal(revisionAfter(stored({ revision: 3, status: 'resolved' }), incoming(), 'new_lifecycle'), 4);
    assert.equal(revisionAfter(stored({ revision: 3 }), incoming({ message: 'x' }), 'stale'), 3);
  });
});
