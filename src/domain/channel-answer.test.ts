import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answeredLine,
  decodeAnswerPayload,
  encodeAnswerPayload,
  isAllowedUser,
  readUserIdList,
} from './channel-answer.js';

const ID = '019c3b7e-1f2a-7d00-8a1b-0123456789ab';

describe('channel answer payloads', () => {
  it('round-trips within Telegram callback_data 64 bytes', () => {
    const payload = encodeAnswerPayload(ID, 123456789, 2);
    assert.ok(Buffer.byteLength(payload) <= 64, payload);
    assert.deepEqual(decodeAnswerPayload(payload), {
      notificationId: ID,
      revision: 123456789,
      choice: { index: 2 },
    });
  });

  it('reads nothing that is not a payload we wrote', () => {
    for (const payload of [
      '',
      'n1',
      `n2:${ID}:1:0`,
      `n1:${ID}:0:0`,
      `n1:${ID}:1:10`,
      `n1:${ID}:-1:0`,
      `n1:${ID.toUpperCase()}:1:0`,
      `n1:../x:1:0`,
      `n1:${ID}:1:0:extra`,
      `n1:${ID}:1e3:0`,
    ]) {
      assert.equal(decodeAnswerPayload(payload), undefined, payload);
    }
  });
});

describe('allowed users', () => {
  it('reads comma- or space-separated ids and allows only those or the implicit ones', () => {
    const allowed = readUserIdList(' 42, @me:example.org  U0ABC,,');
    assert.deepEqual(allowed, ['42', '@me:example.org', 'U0ABC']);
    assert.equal(isAllowedUser(allowed, '42'), true);
    assert.equal(isAllowedUser(allowed, '4'), false);
    assert.equal(isAllowedUser([], '7', ['7']), true);
    assert.equal(isAllowedUser(readUserIdList(undefined), '7'), false);
  });
});

describe('answered line', () => {
  it('says where the answer was given', () => {
    assert.equal(answeredLine('Allow', 'toast'), 'Answered “Allow” at the desk');
    assert.equal(answeredLine('Deny', 'telegram'), 'Answered “Deny” on Telegram');
  });
});
