import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerRefusal, parseAnswerRequest, readActions } from './answers.js';
import { TERMINAL_ONLY } from './display-controls.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail('accepted');
}

const ARRAY_MESSAGE = 'actions must be an array of 1 to 3 {id, label} objects';
const ID_MESSAGE = (index: number) =>
  `actions[${index}].id must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores`;

describe('readActions (the actions field of a create)', () => {
  it('is absent when absent or null', () => {
    assert.equal(readActions({}), undefined);
    assert.equal(readActions({ actions: null }), undefined);
  });

  it('takes 1 to 3 actions, trimming labels of up to 40 characters', () => {
    assert.deepEqual(readActions({ actions: [{ id: 'yes', label: ' Yes ' }] }), [
      { id: 'yes', label: 'Yes' },
    ]);
    const three = [
      { id: 'a', label: 'x'.repeat(40) },
      { id: 'b', label: 'B' },
      { id: 'c', label: 'C' },
    ];
    assert.deepEqual(readActions({ actions: three }), three);
  });

  it('refuses none, four, or a non-array', () => {
    const action = (id: string) => ({ id, label: id });
    for (const actions of [[], ['a', 'b', 'c', 'd'].map(action), { id: 'a', label: 'a' }, 'a']) {
      assert.equal(
        refusal(() => readActions({ actions })),
        ARRAY_MESSAGE,
      );
    }
  });

  it('refuses repeated ids', () => {
    assert.equal(
      refusal(() =>
        readActions({
          actions: [
            { id: 'a', label: 'A' },
            { id: 'a', label: 'B' },
          ],
        }),
      ),
      'actions must have distinct ids',
    );
  });

  it('names the action that is wrong', () => {
    const ok = { id: 'ok', label: 'OK' };
    assert.equal(
      refusal(() => readActions({ actions: [ok, 'no'] })),
      'actions[1] must be an object with id and label',
    );
    assert.equal(
      refusal(() => readActions({ actions: [ok, null] })),
      'actions[1] must be an object with id and label',
    );
    assert.equal(
      refusal(() => readActions({ actions: [ok, [1]] })),
      'actions[1] must be an object with id and label',
    );
    assert.equal(
      refusal(() => readActions({ actions: [{ id: 'Yes', label: 'y' }] })),
      ID_MESSAGE(0),
    );
    assert.equal(
      refusal(() => readActions({ actions: [{ id: ['yes'], label: 'y' }] })),
      ID_MESSAGE(0),
    );
    assert.equal(
      refusal(() => readActions({ actions: [ok, { id: 3, label: 'y' }] })),
      ID_MESSAGE(1),
    );
    assert.equal(
      refusal(() => readActions({ actions: [{ id: 'y' }] })),
      'label is required',
    );
    assert.equal(
      refusal(() => readActions({ actions: [{ id: 'y', label: 'x'.repeat(41) }] })),
      'label must be at most 40 characters',
    );
    assert.equal(
      refusal(() => readActions({ actions: [{ id: 'y', label: 'Y', style: 'red' }] })),
      'unknown field "style"; allowed fields are id, label',
    );
  });
});

describe('parseAnswerRequest (POST /v1/notifications/{id}/answer)', () => {
  it('takes an action and defaults the surface to cli', () => {
    assert.deepEqual(parseAnswerRequest({ action: ' yes ' }), { action: 'yes', surface: 'cli' });
    assert.deepEqual(parseAnswerRequest({ action: 'yes', surface: 'web' }), {
      action: 'yes',
      surface: 'web',
    });
    assert.deepEqual(parseAnswerRequest({ action: 'yes', surface: 'relay' }), {
      action: 'yes',
      surface: 'relay',
    });
    assert.deepEqual(parseAnswerRequest({ action: ` ${'a'.repeat(64)} ` }), {
      action: 'a'.repeat(64),
      surface: 'cli',
    });
    assert.deepEqual(parseAnswerRequest({ action: 'a'.repeat(64), surface: null }), {
      action: 'a'.repeat(64),
      surface: 'cli',
    });
  });

  it('refuses a missing, blank, too long or non-string action', () => {
    assert.equal(
      refusal(() => parseAnswerRequest({})),
      'action is required',
    );
    assert.equal(
      refusal(() => parseAnswerRequest({ action: null })),
      'action is required',
    );
    for (const action of ['', '  ', 'a'.repeat(65), 3]) {
      assert.equal(
        refusal(() => parseAnswerRequest({ action })),
        "action must be the id of one of the notification's actions",
      );
    }
  });

  it('refuses the surfaces only the broker itself may claim', () => {
    for (const surface of ['toast', 'tray', 'email', 1]) {
      assert.equal(
        refusal(() => parseAnswerRequest({ action: 'yes', surface })),
        'surface must be one of cli, web, relay (toast and tray answers come from the broker itself)',
      );
    }
  });

  it('reads the revision the person answered, a whole number from 1', () => {
    assert.deepEqual(parseAnswerRequest({ action: 'yes', revision: 2 }), {
      action: 'yes',
      surface: 'cli',
      revision: 2,
    });
    // A request never changed since it was made is at revision 1: answering it is the common case.
    assert.deepEqual(parseAnswerRequest({ action: 'yes', revision: 1 }), {
      action: 'yes',
      surface: 'cli',
      revision: 1,
    });
    assert.deepEqual(parseAnswerRequest({ action: 'yes', revision: null }), {
      action: 'yes',
      surface: 'cli',
    });
    for (const revision of [0, -1, 1.5, '2', true])
      assert.equal(
        refusal(() => parseAnswerRequest({ action: 'yes', revision })),
        'revision must be a whole number from 1: the revision of the notification that was shown',
      );
  });

  it('refuses a non-object body and unknown fields', () => {
    assert.equal(
      refusal(() => parseAnswerRequest('yes')),
      'request body must be a JSON object',
    );
    assert.equal(
      refusal(() => parseAnswerRequest({ action: 'yes', why: 'x' })),
      'unknown field "why"; allowed fields are action, surface, revision',
    );
  });
});

describe('answerRefusal', () => {
  const actions = [
    { id: 'yes', label: 'Yes' },
    { id: 'no', label: 'No' },
  ];
  const title = 'Run ls?';

  it('lets an active notification take one of its actions', () => {
    assert.equal(answerRefusal({ status: 'active', revision: 1, title, actions }, 'no'), undefined);
  });

  it('refuses a second answer as a conflict, naming the first', () => {
    assert.deepEqual(
      answerRefusal(
        {
          status: 'resolved',
          revision: 1,
          title,
          actions,
          answer: { action: 'yes', surface: 'tray', answeredAt: 1 },
        },
        'no',
      ),
      { conflict: true, message: 'notification already answered: yes (from tray)' },
    );
  });

  it('refuses an answer to a dismissed or resolved notification as a conflict', () => {
    assert.deepEqual(answerRefusal({ status: 'dismissed', revision: 1, title, actions }, 'yes'), {
      conflict: true,
      message: 'notification is dismissed; only an active notification can be answered',
    });
  });

  it('refuses an answer to an earlier revision as stale, before looking at its action', () => {
    const changed = { status: 'active', revision: 3, title, actions };
    const stale = {
      conflict: true,
      stale: true,
      message:
        'this request changed after it was shown (revision 2 answered, now revision 3); look at it again and answer what it asks now',
    };
    assert.deepEqual(answerRefusal(changed, 'yes', 2), stale);
    assert.deepEqual(answerRefusal(changed, 'maybe', 2), stale);
    assert.equal(answerRefusal(changed, 'yes', 3), undefined);
    assert.equal(answerRefusal(changed, 'yes'), undefined);
  });

  it('refuses an action the notification does not offer, listing those it does', () => {
    assert.deepEqual(answerRefusal({ status: 'active', revision: 1, title, actions }, 'maybe'), {
      conflict: false,
      message: 'unknown action "maybe"; this notification\'s actions are yes, no',
    });
    assert.deepEqual(answerRefusal({ status: 'active', revision: 1, title }, 'yes'), {
      conflict: false,
      message: 'notification has no actions to answer',
    });
    assert.deepEqual(answerRefusal({ status: 'active', revision: 1, title, actions: [] }, 'yes'), {
      conflict: false,
      message: 'notification has no actions to answer',
    });
  });

  it('refuses any answer to a request whose text holds direction or invisible characters, saying why', () => {
    const refused = { conflict: true, message: TERMINAL_ONLY };
    assert.deepEqual(
      answerRefusal({ status: 'active', revision: 1, title: 'Run\u202e?', actions }, 'yes'),
      refused,
    );
    assert.deepEqual(
      answerRefusal({ status: 'active', revision: 1, title, message: 'ls \u202e hs.| lruc', actions }, 'yes'),
      refused,
    );
    assert.deepEqual(
      answerRefusal(
        { status: 'active', revision: 1, title, actions: [{ id: 'yes', label: 'Y\u200des' }] },
        'yes',
      ),
      refused,
    );
    assert.equal(
      TERMINAL_ONLY,
      'answer in the terminal: this text contains characters that change how it is displayed',
    );
  });
});
