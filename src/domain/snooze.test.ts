import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from './errors.js';
import { parseSnoozeRequest } from './snooze.js';

const RANGE = 'minutes must be a whole number from 1 to 1440';

function refusal(body: unknown): string {
  try {
    parseSnoozeRequest(body);
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
}

describe('POST /v1/notifications/{id}/snooze body (issue 20)', () => {
  it('takes a minute up to a whole day', () => {
    assert.deepEqual(parseSnoozeRequest({ minutes: 1 }), { minutes: 1 });
    assert.deepEqual(parseSnoozeRequest({ minutes: 15 }), { minutes: 15 });
    assert.deepEqual(parseSnoozeRequest({ minutes: 1440 }), { minutes: 1440 });
  });

  it('refuses no time, a past time, more than a day, part minutes and non-numbers, saying the range', () => {
    for (const minutes of [0, -5, 1441, 10_000, 2.5, '15', null, undefined])
      assert.equal(refusal({ minutes }), RANGE, String(minutes));
  });

  it('refuses a body that is not an object, and fields it does not know', () => {
    assert.equal(refusal([15]), 'request body must be a JSON object');
    assert.equal(
      refusal({ minutes: 15, until: 'tomorrow' }),
      'unknown field "until"; allowed fields are minutes',
    );
  });
});
