import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { arcEvent, DELETE, keyedEvent, readSchema, withPath, type Json } from './fixtures.js';

const addFormats = addFormatsPlugin.default;

/** The published document, compiled the way a strict producer would compile it. */
function compileStrict() {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: true,
    strictTuples: true,
    strictRequired: true,
    allErrors: true,
  });
  addFormats(ajv);
  return ajv.compile(readSchema());
}

describe('schemas/arc-0.1.schema.json', () => {
  it('is a draft 2020-12 document that compiles under every ajv strict option', () => {
    const schema = readSchema() as Json;
    assert.equal(schema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
    assert.doesNotThrow(() => compileStrict());
  });

  const validate = compileStrict();

  const valid: [string, Json][] = [
    ['a minimal unkeyed request.created', arcEvent()],
    [
      'a request.created with every field',
      arcEvent({
        sender: { id: 'ci', name: 'CI bot', version: '', instance_id: 'runner-7' },
        context: { session_id: 's', correlation_id: 'c', project: 'web', cwd: '/src/web', pid: 0 },
        request: {
          key: 'deploy',
          kind: 'permission',
          title: 'Deploy?',
          message: 'Ship 1.2?',
          priority: 'low',
        },
        extensions: { 'x-notify': { notification_type: 'deploy_gate' }, 'x-acme.build-1': { any: [1, 'x'] } },
      }),
    ],
    ['a request.updated', keyedEvent('request.updated', 'k')],
    ['a request.resolved with only the key', keyedEvent('request.resolved', 'k')],
    ['an empty x-notify object', arcEvent({ extensions: { 'x-notify': {} } })],
    ['occurred_at with an offset and fraction', arcEvent({ occurred_at: '2026-05-01T14:00:00.123+02:00' })],
    [
      'a message of 4000 astral code points',
      arcEvent({ request: { kind: 'failure', message: '😀'.repeat(4000) } }),
    ],
  ];
  for (const [name, event] of valid) {
    it(`accepts ${name}`, () => {
      assert.equal(validate(event), true, JSON.stringify(validate.errors));
    });
  }

  it('accepts the example envelope of docs/arc.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/arc.md', import.meta.url)), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(example, 'docs/arc.md has a JSON example');
    assert.equal(validate(JSON.parse(example)), true, JSON.stringify(validate.errors));
  });

  const invalid: [string, Json][] = [
    ['arc_version 0.2', arcEvent({ arc_version: '0.2' })],
    ['a missing event_id', withPath(arcEvent(), ['event_id'], DELETE)],
    ['an event_id of 513 characters', arcEvent({ event_id: 'e'.repeat(513) })],
    ['an unknown event_type', arcEvent({ event_type: 'request.deleted' })],
    ['occurred_at without a time zone', arcEvent({ occurred_at: '2026-05-01T12:00:00' })],
    ['occurred_at that is not a date', arcEvent({ occurred_at: 'yesterday' })],
    ['an unknown top-level field', arcEvent({ severity: 1 })],
    ['an unknown sender field', withPath(arcEvent(), ['sender', 'email'], 'a@b')],
    ['an unknown context field', arcEvent({ context: { user: 'me' } })],
    ['an unknown request field', withPath(arcEvent(), ['request', 'body'], 'x')],
    ['an unknown x-notify field', arcEvent({ extensions: { 'x-notify': { sound: 'ping' } } })],
    ['an extension key without x-', arcEvent({ extensions: { acme: {} } })],
    ['an extension key with capitals', arcEvent({ extensions: { 'x-Acme': {} } })],
    [
      'a notification_type breaking the grammar',
      arcEvent({ extensions: { 'x-notify': { notification_type: 'Deploy' } } }),
    ],
    ['a whitespace-only key', keyedEvent('request.created', '   ')],
    ['a negative pid', arcEvent({ context: { pid: -1 } })],
    ['a fractional pid', arcEvent({ context: { pid: 1.5 } })],
    ['a request.created without kind', withPath(arcEvent(), ['request', 'kind'], DELETE)],
    [
      'a request.updated without key',
      withPath(keyedEvent('request.updated', 'k'), ['request', 'key'], DELETE),
    ],
    ['a request.resolved with a message', keyedEvent('request.resolved', 'k', { message: 'done' })],
    ['a message of 4001 characters', arcEvent({ request: { kind: 'failure', message: 'm'.repeat(4001) } })],
  ];
  for (const [name, event] of invalid) {
    it(`rejects ${name}`, () => {
      assert.equal(validate(event), false);
    });
  }
});
