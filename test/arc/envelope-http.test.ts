import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import {
  arcEvent,
  DELETE,
  keyedEvent,
  post,
  snapshot,
  text,
  unique,
  withPath,
  type Json,
} from './fixtures.js';

/** Validation of POST /v1/events against the real broker, table by table from the spec. */
describe('POST /v1/events envelope validation', () => {
  const broker = useBroker();

  /** 400 with exactly this sentence, and the notification list is the same before and after. */
  async function expectRejected(body: unknown, message: string): Promise<void> {
    const before = await snapshot(broker);
    const reply = await post(broker, body);
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { error: message });
    assert.deepEqual(await snapshot(broker), before, 'a rejected event changed the notifications');
  }

  describe('every required field missing', () => {
    const cases: [string, Json, string[], string][] = [
      ['arc_version', arcEvent(), ['arc_version'], 'arc_version is required'],
      ['event_id', arcEvent(), ['event_id'], 'event_id is required'],
      ['event_type', arcEvent(), ['event_type'], 'event_type is required'],
      ['occurred_at', arcEvent(), ['occurred_at'], 'occurred_at is required'],
      ['sender', arcEvent(), ['sender'], 'sender is required'],
      ['request', arcEvent(), ['request'], 'request is required'],
      ['sender.id', arcEvent(), ['sender', 'id'], 'sender.id is required'],
      [
        'request.kind of request.created',
        arcEvent(),
        ['request', 'kind'],
        'request.kind is required for request.created',
      ],
      [
        'request.message of request.created',
        arcEvent(),
        ['request', 'message'],
        'request.message is required for request.created',
      ],
      [
        'request.key of request.updated',
        keyedEvent('request.updated', 'k'),
        ['request', 'key'],
        'request.key is required for request.updated',
      ],
      [
        'request.kind of request.updated',
        keyedEvent('request.updated', 'k'),
        ['request', 'kind'],
        'request.kind is required for request.updated',
      ],
      [
        'request.message of request.updated',
        keyedEvent('request.updated', 'k'),
        ['request', 'message'],
        'request.message is required for request.updated',
      ],
      [
        'request.key of request.resolved',
        keyedEvent('request.resolved', 'k'),
        ['request', 'key'],
        'request.key is required for request.resolved',
      ],
    ];
    for (const [name, event, path, message] of cases) {
      it(`rejects an event without ${name} with 400 and creates nothing`, async () => {
        await expectRejected(withPath(event, path, DELETE), message);
      });
    }
  });

  describe('every additional property at every level', () => {
    const cases: [string, Json, string][] = [
      [
        'the envelope',
        arcEvent({ priority: 'high' }),
        'priority is not an ARC 0.1 envelope field; the envelope allows only arc_version, event_id, event_type, occurred_at, sender, context, request, extensions',
      ],
      [
        'sender',
        withPath(arcEvent(), ['sender', 'email'], 'bot@example.com'),
        'sender.email is not allowed; sender allows only id, name, version, instance_id',
      ],
      [
        'context',
        arcEvent({ context: { user: 'me' } }),
        'context.user is not allowed; context allows only session_id, correlation_id, project, cwd, pid',
      ],
      [
        'request',
        withPath(arcEvent(), ['request', 'type'], 'warning'),
        'request.type is not allowed; request allows only key, kind, title, message, priority',
      ],
      [
        'extensions.x-notify',
        arcEvent({ extensions: { 'x-notify': { notification_type: 'warning', sound: 'ping' } } }),
        'extensions.x-notify.sound is not allowed; extensions.x-notify allows only notification_type, origin',
      ],
      [
        'extensions (a key outside the x- namespace)',
        arcEvent({ extensions: { notify: {} } }),
        'extensions.notify is not a namespaced extension key; keys must be "x-" then a lowercase letter or digit and up to 63 lowercase letters, digits, dots or hyphens',
      ],
    ];
    for (const [level, event, message] of cases) {
      it(`rejects an unknown property of ${level}`, async () => {
        await expectRejected(event, message);
      });
    }
    for (const field of ['kind', 'title', 'message', 'priority']) {
      it(`rejects request.${field} on request.resolved`, async () => {
        const value = field === 'kind' ? 'failure' : field === 'priority' ? 'low' : 'x';
        await expectRejected(
          keyedEvent('request.resolved', unique('k'), { [field]: value }),
          'request.resolved allows no request property but key',
        );
      });
    }
  });

  describe('every length boundary', () => {
    interface Boundary {
      path: string[];
      max: number;
      min: 0 | 1;
      /** Where the accepted value shows in the Notification. */
      shows: (dto: Json) => unknown;
      base?: () => Json;
    }
    const arc = (dto: Json) => (dto['metadata'] as Json)['arc'] as Json;
    const boundaries: Boundary[] = [
      { path: ['event_id'], max: 512, min: 1, shows: (dto) => arc(dto)['event_id'] },
      { path: ['sender', 'id'], max: 100, min: 1, shows: (dto) => dto['agent'] },
      { path: ['sender', 'name'], max: 160, min: 1, shows: (dto) => (arc(dto)['sender'] as Json)['name'] },
      {
        path: ['sender', 'version'],
        max: 100,
        min: 0,
        shows: (dto) => (arc(dto)['sender'] as Json)['version'],
      },
      { path: ['sender', 'instance_id'], max: 100, min: 0, shows: (dto) => dto['agentInstance'] },
      {
        path: ['context', 'session_id'],
        max: 100,
        min: 0,
        shows: (dto) => (arc(dto)['context'] as Json)['session_id'],
      },
      {
        path: ['context', 'correlation_id'],
        max: 200,
        min: 0,
        shows: (dto) => (arc(dto)['context'] as Json)['correlation_id'],
      },
      { path: ['context', 'project'], max: 200, min: 0, shows: (dto) => dto['project'] },
      { path: ['context', 'cwd'], max: 1024, min: 0, shows: (dto) => dto['cwd'] },
      {
        path: ['request', 'key'],
        max: 100,
        min: 1,
        shows: (dto) => dto['key'],
        base: () => keyedEvent('request.created', 'placeholder'),
      },
      { path: ['request', 'title'], max: 200, min: 1, shows: (dto) => dto['title'] },
      { path: ['request', 'message'], max: 4000, min: 1, shows: (dto) => dto['message'] },
    ];

    for (const { path, max, min, shows, base } of boundaries) {
      const name = path.join('.');
      it(`accepts ${name} of exactly ${max} characters`, async () => {
        const value = text(max, unique(name));
        const reply = await post(broker, withPath((base ?? arcEvent)(), path, value));
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.equal(shows(reply.body), value);
      });
      it(`rejects ${name} of ${max + 1} characters`, async () => {
        await expectRejected(
          withPath((base ?? arcEvent)(), path, text(max + 1, name)),
          `${name} must be at most ${max} characters`,
        );
      });
      if (min === 1) {
        it(`rejects an empty ${name}`, async () => {
          await expectRejected(withPath((base ?? arcEvent)(), path, ''), `${name} must not be empty`);
        });
      } else {
        it(`accepts an empty ${name} and leaves it out of the notification fields`, async () => {
          const reply = await post(broker, withPath(arcEvent(), path, ''));
          assert.equal(reply.status, 201, JSON.stringify(reply.body));
          assert.ok(['agentInstance', 'project', 'cwd'].every((field) => reply.body[field] === undefined));
        });
      }
    }

    it('counts characters as code points: a message of 4000 emoji is accepted', async () => {
      const message = '🚀'.repeat(4000);
      const reply = await post(broker, arcEvent({ request: { kind: 'information', message } }));
      assert.equal(reply.status, 201);
      assert.equal(reply.body['message'], message);
    });

    it('rejects a message of 4001 emoji', async () => {
      await expectRejected(
        arcEvent({ request: { kind: 'information', message: '🚀'.repeat(4001) } }),
        'request.message must be at most 4000 characters',
      );
    });

    it('accepts a notification_type of 64 characters', async () => {
      const type = text(64, 'custom');
      const reply = await post(broker, arcEvent({ extensions: { 'x-notify': { notification_type: type } } }));
      assert.equal(reply.status, 201);
      assert.equal(reply.body['type'], type);
    });

    it('rejects a notification_type of 65 characters', async () => {
      await expectRejected(
        arcEvent({ extensions: { 'x-notify': { notification_type: text(65, 'custom') } } }),
        'extensions.x-notify.notification_type must be a type identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
      );
    });

    it('accepts an extension key of 66 characters and ignores its value', async () => {
      const key = `x-${text(64, 'acme')}`;
      const reply = await post(broker, arcEvent({ extensions: { [key]: { anything: [1, 2] } } }));
      assert.equal(reply.status, 201);
      assert.doesNotMatch(JSON.stringify(reply.body['metadata']), /anything/);
    });

    it('rejects an extension key of 67 characters', async () => {
      const key = `x-${text(65, 'acme')}`;
      await expectRejected(
        arcEvent({ extensions: { [key]: {} } }),
        `extensions.${key} is not a namespaced extension key; keys must be "x-" then a lowercase letter or digit and up to 63 lowercase letters, digits, dots or hyphens`,
      );
    });

    it('accepts context.pid 0 and rejects -1', async () => {
      const reply = await post(broker, arcEvent({ context: { pid: 0 } }));
      assert.equal(reply.status, 201);
      assert.equal(reply.body['pid'], 0);
      await expectRejected(arcEvent({ context: { pid: -1 } }), 'context.pid must be a non-negative integer');
    });
  });

  describe('other rules of the envelope', () => {
    const cases: [string, unknown, string][] = [
      ['an unsupported arc_version', arcEvent({ arc_version: '1.0' }), 'arc_version must be "0.1"'],
      [
        'an unknown event_type',
        arcEvent({ event_type: 'request.deleted' }),
        'event_type must be one of request.created, request.updated, request.resolved',
      ],
      [
        'an occurred_at without offset',
        arcEvent({ occurred_at: '2026-05-01T12:00:00' }),
        'occurred_at must be an RFC 3339 date-time with a time zone offset, e.g. 2026-05-01T12:00:00Z',
      ],
      [
        'an unknown priority',
        arcEvent({ request: { kind: 'question', message: 'm', priority: 'urgent' } }),
        'request.priority must be one of low, normal, high, critical',
      ],
      [
        'a whitespace-only key',
        keyedEvent('request.created', '   '),
        'request.key must contain a non-whitespace character',
      ],
      [
        'a whitespace-only message',
        arcEvent({ request: { kind: 'question', message: ' \n ' } }),
        'request.message must contain a non-whitespace character',
      ],
      ['a JSON array', [arcEvent()], 'request body must be a JSON object'],
      ['malformed JSON', '{"arc_version": ', 'request body is not valid JSON'],
    ];
    for (const [name, body, message] of cases) {
      it(`rejects ${name}`, async () => {
        await expectRejected(body, message);
      });
    }
  });
});
