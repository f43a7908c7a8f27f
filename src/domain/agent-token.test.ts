import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_TOKEN_LIFETIME_SECONDS, parseAgentTokenRequest, parseLifetime } from './agent-token.js';
import { InvalidRequestError } from './errors.js';

const LIFETIME_REFUSAL = `expiresInSeconds must be a whole number from 60 to ${MAX_TOKEN_LIFETIME_SECONDS} (a year)`;
const NAME_REFUSAL =
  'name must be 1-63 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit (a host name such as api-box)';

/**
 * POST /v1/tokens as the broker reads it (issue 33): a host name of at most 63 characters, and a
 * lifetime from a minute to a year. What is refused is refused before any token exists.
 */
describe('parseAgentTokenRequest', () => {
  const TAKEN: [body: Record<string, unknown>, request: Record<string, unknown>][] = [
    [{ name: 'api-box' }, { name: 'api-box' }],
    [{ name: 'a' }, { name: 'a' }],
    [{ name: `a${'b'.repeat(62)}` }, { name: `a${'b'.repeat(62)}` }],
    [{ name: 'ci.runner_2' }, { name: 'ci.runner_2' }],
    [
      { name: 'api-box', expiresInSeconds: 60 },
      { name: 'api-box', expiresInSeconds: 60 },
    ],
    [
      { name: 'api-box', expiresInSeconds: MAX_TOKEN_LIFETIME_SECONDS },
      { name: 'api-box', expiresInSeconds: MAX_TOKEN_LIFETIME_SECONDS },
    ],
  ];
  for (const [body, request] of TAKEN) {
    it(`takes ${JSON.stringify(body)}`, () => {
      assert.deepEqual(parseAgentTokenRequest(body), request);
    });
  }

  const REFUSED: [body: unknown, message: string][] = [
    [{ name: `a${'b'.repeat(63)}` }, NAME_REFUSAL],
    [{ name: '' }, NAME_REFUSAL],
    [{ name: 'Api-Box' }, NAME_REFUSAL],
    [{ name: '-box' }, NAME_REFUSAL],
    [{ name: 'api-box', expiresInSeconds: 59 }, LIFETIME_REFUSAL],
    [{ name: 'api-box', expiresInSeconds: 1 }, LIFETIME_REFUSAL],
    [{ name: 'api-box', expiresInSeconds: MAX_TOKEN_LIFETIME_SECONDS + 1 }, LIFETIME_REFUSAL],
    [{ name: 'api-box', expiresInSeconds: 90.5 }, LIFETIME_REFUSAL],
    [{ name: 'api-box', scope: 'all' }, 'unknown field "scope"; allowed fields are name, expiresInSeconds'],
    [[], 'the body must be a JSON object such as {"name": "api-box"}'],
  ];
  for (const [body, message] of REFUSED) {
    it(`refuses ${JSON.stringify(body)}`, () => {
      assert.throws(
        () => parseAgentTokenRequest(body),
        (error: unknown) => error instanceof InvalidRequestError && error.message === message,
      );
    });
  }
});

describe('parseLifetime: notifyctl tokens create --expires', () => {
  const TABLE: [text: string, seconds: number | undefined][] = [
    ['90m', 5400],
    ['1m', 60],
    ['12h', 43_200],
    ['30d', 2_592_000],
    [' 2h ', 7200],
    ['2w', undefined],
    ['h', undefined],
    ['1.5h', undefined],
    ['', undefined],
  ];
  for (const [text, seconds] of TABLE) {
    it(`"${text}" is ${seconds === undefined ? 'no lifetime' : `${seconds} s`}`, () => {
      assert.equal(parseLifetime(text), seconds);
    });
  }
});
