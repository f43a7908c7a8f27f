import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Status } from './notification.js';
import { checkTransition, parseStatusChange } from './status-transition.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail('accepted');
}

describe('parseStatusChange (PATCH /v1/notifications/{id})', () => {
  it('reads each status, ignoring case and surrounding spaces', () => {
    assert.equal(parseStatusChange({ status: 'dismissed' }), 'dismissed');
    assert.equal(parseStatusChange({ status: ' Resolved ' }), 'resolved');
    assert.equal(parseStatusChange({ status: 'ACTIVE' }), 'active');
  });

  it('requires status, in an object body', () => {
    for (const body of [{}, { status: null }, null, [], 'resolved']) {
      assert.equal(
        refusal(() => parseStatusChange(body)),
        'status is required',
      );
    }
  });

  it('refuses a status that is not one of the three', () => {
    for (const status of ['closed', '', 1, ['active'], 'activ']) {
      assert.equal(
        refusal(() => parseStatusChange({ status })),
        'status must be one of active, dismissed, resolved',
      );
    }
  });

  it('refuses an unknown field next to status', () => {
    assert.equal(
      refusal(() => parseStatusChange({ status: 'resolved', reason: 'done' })),
      'unknown field "reason"; allowed fields are status',
    );
  });
});

describe('checkTransition (spec "States and transitions")', () => {
  const TABLE: [from: Status, to: Status, outcome: boolean | 'refused'][] = [
    ['active', 'active', false],
    ['active', 'dismissed', true],
    ['active', 'resolved', true],
    ['dismissed', 'active', true],
    ['dismissed', 'dismissed', 'refused'],
    ['dismissed', 'resolved', 'refused'],
    ['resolved', 'active', true],
    ['resolved', 'resolved', 'refused'],
    ['resolved', 'dismissed', 'refused'],
  ];
  for (const [from, to, outcome] of TABLE) {
    it(`${from} → ${to}: ${outcome === 'refused' ? 'refused' : outcome ? 'a change' : 'no change'}`, () => {
      if (outcome === 'refused') {
        assert.equal(
          refusal(() => checkTransition(from, to)),
          `cannot change status from ${from} to ${to}; a ${from} notification can only be reopened with status active`,
        );
      } else {
        assert.equal(checkTransition(from, to), outcome);
      }
    });
  }
});
