import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readArcSchema } from '../../src/broker/event-service.js';
import { compileEnvelopeValidator } from '../../src/domain/arc/envelope-validator.js';
import { formatPath } from '../../src/domain/arc/schema-errors.js';
import { InvalidRequestError } from '../../src/domain/errors.js';
import { arcEvent, DELETE, keyedEvent, withPath, type Json } from './fixtures.js';

const validate = compileEnvelopeValidator(readArcSchema());

function messageFor(body: unknown): string {
  try {
    validate(body);
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError);
    return error.message;
  }
  assert.fail('the envelope was accepted');
}

describe('envelope validation messages', () => {
  it('returns a valid envelope unchanged', () => {
    const event = arcEvent();
    assert.equal(validate(event), event);
  });

  const cases: [string, unknown, string][] = [
    ['a non-object body', [1], 'request body must be a JSON object'],
    ['an empty body', undefined, 'request body must be a JSON object'],
    ['an unsupported version', arcEvent({ arc_version: '0.2' }), 'arc_version must be "0.1"'],
    [
      'an unsupported version along with other faults',
      arcEvent({ arc_version: '1.0', request: { kind: 'x' } }),
      'arc_version must be "0.1"',
    ],
    ['a version of the wrong type', arcEvent({ arc_version: 0.1 }), 'arc_version must be a string'],
    [
      'a message one over the limit',
      arcEvent({ request: { kind: 'failure', message: 'm'.repeat(4001) } }),
      'request.message must be at most 4000 characters',
    ],
    [
      'a request property on request.resolved',
      keyedEvent('request.resolved', 'k', { message: 'done' }),
      'request.resolved allows no request property but key',
    ],
    ['a missing top-level field', withPath(arcEvent(), ['sender'], DELETE), 'sender is required'],
    ['a missing sender.id', withPath(arcEvent(), ['sender', 'id'], DELETE), 'sender.id is required'],
    [
      'a conditional requirement',
      withPath(keyedEvent('request.updated', 'k'), ['request', 'key'], DELETE),
      'request.key is required for request.updated',
    ],
    ['an empty event_id', arcEvent({ event_id: '' }), 'event_id must not be empty'],
    [
      'an unknown event_type',
      arcEvent({ event_type: 'request.closed' }),
      'event_type must be one of request.created, request.updated, request.resolved',
    ],
    [
      'an unknown kind',
      arcEvent({ request: { kind: 'alarm', message: 'm' } }),
      'request.kind must be one of information, question, permission, blocked, failure, completion',
    ],
    [
      'a malformed occurred_at',
      arcEvent({ occurred_at: '2026-05-01 noon' }),
      'occurred_at must be an RFC 3339 date-time with a time zone offset, e.g. 2026-05-01T12:00:00Z',
    ],
    ['a negative pid', arcEvent({ context: { pid: -3 } }), 'context.pid must be a non-negative integer'],
    ['a string pid', arcEvent({ context: { pid: '3' } }), 'context.pid must be an integer'],
    ['a sender that is not an object', arcEvent({ sender: 'ci' }), 'sender must be an object'],
    [
      'a blank key',
      keyedEvent('request.created', ' \t '),
      'request.key must contain a non-whitespace character',
    ],
    [
      'an unknown top-level field',
      arcEvent({ severity: 3 }),
      'severity is not an ARC 0.1 envelope field; the envelope allows only arc_version, event_id, event_type, occurred_at, sender, context, request, extensions',
    ],
    [
      'an unknown context field',
      arcEvent({ context: { user: 'me' } }),
      'context.user is not allowed; context allows only session_id, correlation_id, project, cwd, pid',
    ],
    [
      'an unknown x-notify field',
      arcEvent({ extensions: { 'x-notify': { sound: 'ping' } } }),
      'extensions.x-notify.sound is not allowed; extensions.x-notify allows only notification_type, origin',
    ],
    [
      'an extension key without the x- prefix',
      arcEvent({ extensions: { acme: 1 } }),
      'extensions.acme is not a namespaced extension key; keys must be "x-" then a lowercase letter or digit and up to 63 lowercase letters, digits, dots or hyphens',
    ],
    [
      'a notification_type breaking the grammar',
      arcEvent({ extensions: { 'x-notify': { notification_type: 'Deploy-Gate' } } }),
      'extensions.x-notify.notification_type must be a type identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
    ],
    [
      'the deepest of several faults',
      withPath(arcEvent({ event_id: '' }), ['sender', 'name'], 'n'.repeat(161)),
      'sender.name must be at most 160 characters',
    ],
  ];
  for (const [name, body, expected] of cases) {
    it(`names the path and the rule for ${name}`, () => {
      assert.equal(messageFor(body), expected);
    });
  }

  it('quotes path segments that are not plain names', () => {
    assert.equal(formatPath('/extensions/a b'), 'extensions."a b"');
    assert.equal(formatPath('/x~1y'), '"x/y"');
    assert.equal(formatPath(''), 'the event');
  });

  it('answers in one sentence for every rejected example', () => {
    const bodies: Json[] = [arcEvent({ a: 1, b: 2 }), arcEvent({ sender: {}, request: {} })];
    for (const body of bodies) assert.doesNotMatch(messageFor(body), /\.\s+[A-Z]|\n/);
  });
});
