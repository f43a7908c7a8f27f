import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArcEnvelope, ArcKind } from '../../src/domain/arc/envelope.js';
import {
  arcMetadata,
  conditionKey,
  deriveTitle,
  KIND_DEFAULTS,
  toDraft,
} from '../../src/domain/arc/mapping.js';
import { characterCount } from '../../src/domain/text.js';

function envelope(overrides: Partial<ArcEnvelope> = {}): ArcEnvelope {
  return {
    arc_version: '0.1',
    event_id: 'evt-1',
    event_type: 'request.created',
    occurred_at: '2026-05-01T12:00:00Z',
    sender: { id: 'ci-bot' },
    request: { kind: 'question', message: 'Deploy to production?' },
    ...overrides,
  };
}

describe('ARC kind to local defaults (spec table)', () => {
  const table: [ArcKind, string, string][] = [
    ['information', 'info', 'normal'],
    ['question', 'input_required', 'high'],
    ['permission', 'permission_required', 'high'],
    ['blocked', 'blocked', 'high'],
    ['failure', 'error', 'high'],
    ['completion', 'completed', 'normal'],
  ];
  for (const [kind, type, priority] of table) {
    it(`maps kind ${kind} to type ${type} with default priority ${priority}`, () => {
      assert.deepEqual(KIND_DEFAULTS[kind], { type, priority });
      const draft = toDraft(envelope({ request: { kind, message: 'm' } }));
      assert.equal(draft.type, type);
      assert.equal(draft.priority, priority);
    });
  }

  it('lets request.priority override the kind default', () => {
    const draft = toDraft(envelope({ request: { kind: 'question', message: 'm', priority: 'low' } }));
    assert.equal(draft.priority, 'low');
  });

  it('lets x-notify.notification_type select the type and keeps the kind default priority', () => {
    const draft = toDraft(
      envelope({
        request: { kind: 'failure', message: 'm' },
        extensions: { 'x-notify': { notification_type: 'deploy_gate' } },
      }),
    );
    assert.equal(draft.type, 'deploy_gate');
    assert.equal(draft.priority, 'high');
  });

  it('keeps the kind type when x-notify has no notification_type', () => {
    const draft = toDraft(envelope({ extensions: { 'x-notify': {} } }));
    assert.equal(draft.type, 'input_required');
  });
});

describe('field mapping (conventions.md)', () => {
  it('maps sender, context and request onto notification fields', () => {
    const draft = toDraft(
      envelope({
        sender: { id: 'ci-bot', name: 'CI', version: '2.1', instance_id: 'runner-7' },
        context: { session_id: 's-1', correlation_id: 'c-1', project: 'web', cwd: '/src/web', pid: 4242 },
        request: {
          key: 'deploy',
          kind: 'permission',
          title: 'Deploy?',
          message: 'Ship 1.2?',
          priority: 'critical',
        },
      }),
    );
    assert.deepEqual(draft, {
      key: 'deploy',
      agent: 'ci-bot',
      agentInstance: 'runner-7',
      project: 'web',
      cwd: '/src/web',
      pid: 4242,
      type: 'permission_required',
      priority: 'critical',
      title: 'Deploy?',
      message: 'Ship 1.2?',
      metadata: {
        arc: {
          arc_version: '0.1',
          event_id: 'evt-1',
          event_type: 'request.created',
          occurred_at: '2026-05-01T12:00:00Z',
          sender: { name: 'CI', version: '2.1' },
          context: { session_id: 's-1', correlation_id: 'c-1' },
          request: { kind: 'permission' },
        },
      },
    });
  });

  it('trims text like native input', () => {
    const draft = toDraft(
      envelope({
        sender: { id: '  ci-bot ', instance_id: ' r ' },
        context: { project: ' web ', cwd: ' /x ' },
        request: { key: ' k ', kind: 'question', title: ' T ', message: '  m  ' },
      }),
    );
    assert.equal(draft.agent, 'ci-bot');
    assert.equal(draft.agentInstance, 'r');
    assert.equal(draft.project, 'web');
    assert.equal(draft.cwd, '/x');
    assert.equal(draft.key, 'k');
    assert.equal(draft.title, 'T');
    assert.equal(draft.message, 'm');
  });

  it('leaves optional fields absent when the envelope has them empty or blank', () => {
    const draft = toDraft(
      envelope({ sender: { id: 'a', instance_id: '' }, context: { project: '  ', cwd: '' } }),
    );
    assert.equal('agentInstance' in draft, false);
    assert.equal('project' in draft, false);
    assert.equal('cwd' in draft, false);
    assert.equal('pid' in draft, false);
    assert.equal('key' in draft, false);
  });

  it('keeps pid 0', () => {
    assert.equal(toDraft(envelope({ context: { pid: 0 } })).pid, 0);
  });

  it('keeps the rest of the envelope under metadata.arc and never copies unknown extensions', () => {
    const metadata = arcMetadata(envelope({ extensions: { 'x-acme': { secret: 'no' } } }));
    assert.deepEqual(metadata, {
      arc: {
        arc_version: '0.1',
        event_id: 'evt-1',
        event_type: 'request.created',
        occurred_at: '2026-05-01T12:00:00Z',
        request: { kind: 'question' },
      },
    });
  });

  it('reads the condition key trimmed, and none when absent', () => {
    assert.equal(conditionKey(envelope({ request: { key: ' build ' } })), 'build');
    assert.equal(conditionKey(envelope()), undefined);
  });
});

describe('title derivation', () => {
  it('uses the title when the event has one', () => {
    assert.equal(
      toDraft(envelope({ request: { kind: 'question', title: 'Deploy', message: 'm' } })).title,
      'Deploy',
    );
  });

  const kinds: [ArcKind, string][] = [
    ['information', 'Information: Disk at 80%'],
    ['question', 'Question: Disk at 80%'],
    ['permission', 'Permission needed: Disk at 80%'],
    ['blocked', 'Blocked: Disk at 80%'],
    ['failure', 'Failed: Disk at 80%'],
    ['completion', 'Completed: Disk at 80%'],
  ];
  for (const [kind, expected] of kinds) {
    it(`derives "${expected}" for kind ${kind} when the title is absent`, () => {
      assert.equal(toDraft(envelope({ request: { kind, message: 'Disk at 80%' } })).title, expected);
    });
  }

  it('uses the first line of the message with its whitespace collapsed', () => {
    assert.equal(deriveTitle('failure', '\n  Build   failed\n\nstack trace…'), 'Failed: Build failed');
  });

  it('cuts a long first line to 200 code points ending in an ellipsis', () => {
    const title = deriveTitle('question', 'x'.repeat(4000));
    assert.equal(characterCount(title), 200);
    assert.ok(title.startsWith('Question: xxx'));
    assert.ok(title.endsWith('…'));
  });

  it('never splits an astral character when cutting', () => {
    const title = deriveTitle('completion', '😀'.repeat(300));
    assert.equal(characterCount(title), 200);
    assert.doesNotMatch(title, /[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('keeps a title of 200 code points whole, though its UTF-16 length is longer', () => {
    const message = '😀'.repeat(200 - 'Completed: '.length);
    assert.equal(deriveTitle('completion', message), `Completed: ${message}`);
  });

  it('ends the first line at a lone CR or a CRLF too', () => {
    assert.equal(deriveTitle('question', 'Deploy now?\rmore'), 'Question: Deploy now?');
    assert.equal(deriveTitle('question', 'Deploy now?\r\nmore'), 'Question: Deploy now?');
  });

  it('folds every run of whitespace in the first line, and drops what ends it, however it is spaced', () => {
    const cases: [string, string][] = [
      ['Deploy now? \nmore', 'Question: Deploy now?'],
      ['Deploy\tnow?', 'Question: Deploy now?'],
      ['Deploy\u00a0now?', 'Question: Deploy now?'],
      ['Deploy  now?', 'Question: Deploy now?'],
      ['Deploy now?\t\r\nmore', 'Question: Deploy now?'],
      ['Deploy now?', 'Question: Deploy now?'],
    ];
    for (const [message, title] of cases) assert.equal(deriveTitle('question', message), title, message);
  });

  it('is never empty', () => {
    assert.equal(deriveTitle('blocked', ''), 'Blocked');
  });
});
