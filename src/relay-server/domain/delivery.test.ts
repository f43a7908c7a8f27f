import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerRefusal,
  checkDelivered,
  IDEMPOTENCY_KEY,
  NOTIFICATION_ID,
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

describe('checkDelivered, every field', () => {
  const refusal = (change: Record<string, unknown>, body: unknown = { ...BODY, ...change }): string => {
    const checked = checkDelivered(body);
    assert.ok(!checked.ok, `accepted ${JSON.stringify(change)}`);
    return checked.message;
  };
  const accepted = (change: Record<string, unknown>): Delivered => {
    const checked = checkDelivered({ ...BODY, ...change });
    assert.ok(checked.ok, JSON.stringify(change));
    return checked.value;
  };
  const ACTIONS =
    'actions must be 0-3 objects {id, label}: id like a type identifier and distinct, label 1-40 characters.';

  it('keeps every field the sender gave, as given', () => {
    const value = accepted({
      type: 'permission_required',
      priority: 'critical',
      agent: 'claude-code',
      project: 'notify',
      revision: 4,
      message_included: false,
      status: 'resolved',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
      updated_at: '2026-11-25T18:00:00+01:00',
    });
    assert.deepEqual(value, {
      title: 'Run this?',
      message: 'npm publish',
      type: 'permission_required',
      priority: 'critical',
      agent: 'claude-code',
      project: 'notify',
      status: 'resolved',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
      createdAt: '2026-11-25T17:42:00.000Z',
      updatedAt: '2026-11-25T17:00:00.000Z',
      senderRevision: 4,
      messageIncluded: false,
    });
  });

  it('defaults: no actions, no sender revision, the message included; null counts as absent', () => {
    const value = accepted({ actions: undefined, agent: null, project: null, type: null, priority: null });
    assert.deepEqual(
      [value.actions, value.senderRevision, value.messageIncluded, value.agent, value.project, value.type],
      [[], null, true, 'unknown', null, 'info'],
    );
    assert.deepEqual(accepted({ actions: null, revision: null, message_included: null }).actions, []);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, 'text', 1, [BODY]])
      assert.equal(refusal({}, body), 'The body must be a JSON object.');
  });

  it('names the field and its limits: title 1-200, message 1-4000, agent 1-100, project 1-200', () => {
    const limits: [string, number, boolean][] = [
      ['title', 200, true],
      ['message', 4000, true],
      ['agent', 100, false],
      ['project', 200, false],
    ];
    for (const [field, max, required] of limits) {
      const limit = `${field} must be a string of 1-${max} characters.`;
      assert.equal(
        (accepted({ [field]: 'x'.repeat(max) }) as unknown as Record<string, string>)[field],
        'x'.repeat(max),
      );
      assert.equal(refusal({ [field]: 'x'.repeat(max + 1) }), limit);
      assert.equal(refusal({ [field]: '' }), limit);
      assert.equal(refusal({ [field]: 5 }), limit);
      if (required) assert.equal(refusal({ [field]: undefined }), `${field} is required.`);
    }
  });

  it('counts characters as notifyd does, an emoji as one: a title notifyd took is never refused here', () => {
    // notifyd takes a title of 200 characters however they are written, and sends it as it is.
    for (const [field, max] of [
      ['title', 200],
      ['message', 4000],
      ['agent', 100],
      ['project', 200],
    ] as const) {
      const emoji = '📱'.repeat(max);
      assert.equal((accepted({ [field]: emoji }) as unknown as Record<string, string>)[field], emoji, field);
      assert.equal(refusal({ [field]: `${emoji}📱` }), `${field} must be a string of 1-${max} characters.`);
    }
  });

  it('takes a type like a type identifier, up to 64 characters', () => {
    const MESSAGE = 'type must match ^[a-z][a-z0-9_]{0,63}$.';
    assert.equal(accepted({ type: `a${'b_1'.repeat(21)}` }).type, `a${'b_1'.repeat(21)}`);
    for (const bad of [
      `a${'b'.repeat(64)}`,
      '1build',
      'build-done',
      'Build',
      'x build',
      'build\n',
      7,
      '',
      ['build'],
    ])
      assert.equal(refusal({ type: bad }), MESSAGE, String(bad));
  });

  it('takes the four priorities only', () => {
    for (const priority of ['low', 'normal', 'high', 'critical'])
      assert.equal(accepted({ priority }).priority, priority);
    for (const bad of ['urgent', 'HIGH', 3])
      assert.equal(refusal({ priority: bad }), 'priority must be one of low, normal, high, critical.');
  });

  it('takes the three statuses only, and requires one', () => {
    for (const status of ['active', 'resolved', 'dismissed'])
      assert.equal(accepted({ status }).status, status);
    for (const bad of ['answered', undefined, 'ACTIVE'])
      assert.equal(refusal({ status: bad }), 'status must be one of active, resolved, dismissed.');
  });

  it('takes up to 3 actions with identifier ids and labels of 1-40 characters', () => {
    const three = [1, 2, 3].map((n) => ({ id: `a${n}`, label: 'x'.repeat(40) }));
    assert.deepEqual(accepted({ actions: three }).actions, three);
    const bad: unknown[] = [
      [...three, { id: 'a4', label: 'Four' }],
      { id: 'allow', label: 'Allow' },
      'allow',
      [null],
      ['allow'],
      [{ id: 'Allow', label: 'Allow' }],
      [{ id: 7, label: 'Allow' }],
      [{ label: 'Allow' }],
      [{ id: 'allow' }],
      [{ id: 'allow', label: 7 }],
      [{ id: 'allow', label: '' }],
      [{ id: 'allow', label: 'x'.repeat(41) }],
    ];
    for (const actions of bad) assert.equal(refusal({ actions }), ACTIONS, JSON.stringify(actions));
  });

  it('takes a one-character label', () => {
    assert.deepEqual(accepted({ actions: [{ id: 'y', label: 'Y' }] }).actions, [{ id: 'y', label: 'Y' }]);
  });

  it('keeps only id and label of an action', () => {
    assert.deepEqual(accepted({ actions: [{ id: 'allow', label: 'Allow', url: 'https://x' }] }).actions, [
      { id: 'allow', label: 'Allow' },
    ]);
  });

  it('requires both times, as ISO 8601 of at most 40 characters', () => {
    assert.equal(refusal({ created_at: undefined }), 'created_at must be an ISO 8601 time.');
    assert.equal(refusal({ created_at: 'never' }), 'created_at must be an ISO 8601 time.');
    assert.equal(refusal({ updated_at: 1_764_092_520_000 }), 'updated_at must be an ISO 8601 time.');
    assert.equal(
      refusal({ updated_at: `2026-11-25T17:42:00.000${'0'.repeat(18)}Z` }),
      'updated_at must be an ISO 8601 time.',
    );
    assert.equal(
      accepted({ updated_at: `2026-11-25T17:42:00.${'0'.repeat(19)}Z` }).updatedAt,
      '2026-11-25T17:42:00.000Z',
    );
  });

  it("takes the sender's revision as an integer from 1", () => {
    assert.equal(accepted({ revision: 1 }).senderRevision, 1);
    for (const bad of [0, -1, 1.5, '2', 2 ** 53])
      assert.equal(refusal({ revision: bad }), 'revision must be an integer from 1.', String(bad));
  });

  it('takes message_included as true or false only', () => {
    assert.equal(accepted({ message_included: true }).messageIncluded, true);
    for (const bad of ['false', 0])
      assert.equal(refusal({ message_included: bad }), 'message_included must be true or false.');
  });
});

describe('ids and idempotency keys', () => {
  it('a notification id is 1-100 characters of letters, digits and . _ : -', () => {
    for (const id of ['n', '01JF8Z3M2Q7X4Y0V6N1R5T8K2C', 'a.b_c:d-e', 'x'.repeat(100)])
      assert.equal(NOTIFICATION_ID.test(id), true, id);
    for (const id of ['', 'x'.repeat(101), 'a/b', '../x', 'a b', 'x?', '/x', 'x/', 'é'])
      assert.equal(NOTIFICATION_ID.test(id), false, id);
  });

  it('an Idempotency-Key is 1-200 printable ASCII characters without spaces', () => {
    for (const key of ['k', '01JF8Z3M2Q7X4Y0V6N1R5T8K2C:1', '!~', 'k'.repeat(200)])
      assert.equal(IDEMPOTENCY_KEY.test(key), true, key);
    for (const key of ['', 'k'.repeat(201), 'a b', ' k', 'k ', 'k\n', 'é'])
      assert.equal(IDEMPOTENCY_KEY.test(key), false, JSON.stringify(key));
  });
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
    assert.equal(
      putEffect(stored(), incoming({ updatedAt: '2026-11-25T17:42:00.000Z' })),
      'update',
      'same time',
    );
    assert.equal(putEffect(stored({ status: 'resolved' }), incoming({ status: 'dismissed' })), 'update');
    assert.equal(
      putEffect(stored({ status: 'dismissed' }), incoming({ updatedAt: '2026-11-25T17:00:00.000Z' })),
      'stale',
      'a late retry of an older active state does not reopen it',
    );
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

  it('refuses an answer to text that displays differently from what runs (answered in the terminal)', () => {
    assert.equal(answerRefusal(stored({ message: 'npm publish\u202e' }), 'allow', 1, 1), 'terminal_only');
    assert.equal(answerRefusal(stored({ title: 'Run\u2066 this?' }), 'allow', 1, 1), 'terminal_only');
  });

  it('says why in the order a person can act on: another lifecycle before answered before ended', () => {
    const answered = stored({ status: 'resolved', answerAction: 'allow', revision: 2 });
    assert.equal(answerRefusal(answered, 'allow', 2, 1), 'other_lifecycle');
    assert.equal(answerRefusal(answered, 'allow', 1, 1), 'answered');
    assert.equal(answerRefusal(stored({ status: 'resolved', revision: 2 }), 'allow', 1, 1), 'not_active');
    assert.equal(answerRefusal(stored({ revision: 2 }), 'deny', 1, 1), 'other_revision');
    const two = stored({
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    assert.equal(answerRefusal(two, 'deny', 1, 1), undefined, 'any offered action, not only the first');
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
      ['type', { type: 'question' }],
      ['agent', { agent: 'codex' }],
      ['project', { project: 'other' }],
      ["sender's revision", { senderRevision: 4 }],
    ];
    for (const [what, change] of changes)
      assert.equal(revisionAfter(stored({ revision: 3 }), incoming(change), 'update'), 4, what);
    assert.equal(revisionAfter(stored({ revision: 3 }), incoming({ updatedAt: 'later' }), 'update'), 3);
    assert.equal(revisionAfter(stored({ revision: 3, status: 'resolved' }), incoming(), 'new_lifecycle'), 4);
    assert.equal(revisionAfter(stored({ revision: 3 }), incoming({ message: 'x' }), 'stale'), 3);
    assert.equal(
      revisionAfter(stored({ revision: 3 }), incoming({ status: 'resolved' }), 'update'),
      3,
      'status alone',
    );
    assert.equal(revisionAfter(stored({ revision: 3 }), incoming({ message: 'x' }), 'insert'), 3);
  });
});
