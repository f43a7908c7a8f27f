import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDelivered, type Stored } from './delivery.js';
import {
  answerable,
  GENERIC_TITLE,
  MAX_PUSH_PAYLOAD_BYTES,
  PUSH_PRIVACY,
  pushPayload,
  pushTopic,
  pushTtlSeconds,
  pushUrgency,
  testPayload,
} from './push-payload.js';

function stored(overrides: Record<string, unknown> = {}): Stored {
  const checked = checkDelivered({
    title: 'Run this?',
    message: 'npm publish',
    type: 'permission_required',
    priority: 'high',
    status: 'active',
    actions: [{ id: 'allow', label: 'Allow' }],
    created_at: '2026-11-25T17:42:00Z',
    updated_at: '2026-11-25T17:42:00Z',
    ...overrides,
  });
  assert.ok(checked.ok);
  return {
    ...checked.value,
    inboxId: 7,
    installationId: 'i_1',
    notificationId: 'n1',
    lifecycle: 1,
    revision: 1,
    answerAction: null,
    answeredAt: null,
    receivedAt: 0,
  };
}

/** A field cut short: at least one character of `char` kept, then the ellipsis. */
function assertCut(value: unknown, char: string): void {
  assert.equal(typeof value, 'string');
  const kept = (value as string).slice(0, -1);
  assert.ok((value as string).endsWith('…') && kept.length > 0, JSON.stringify(value));
  assert.equal(kept, char.repeat(kept.length));
}

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;
const answer = { url: 'https://r.example/v1/push/notifications/7/answer', token: `nrt_${'a'.repeat(43)}` };

describe('pushPayload', () => {
  it('never passes 2 KB, whatever the fields hold (escaped controls, astral characters), and never splits a character', () => {
    const heavy = stored({
      title: '\u0001'.repeat(200),
      message: '😀'.repeat(2000),
      project: '\u0002'.repeat(200),
      agent: '𝔄'.repeat(50),
      actions: [1, 2, 3].map((n) => ({ id: `a${n}`, label: '\u0003'.repeat(40) })),
    });
    const text = pushPayload(heavy, { privacy: 'full', answer, shortened: false });
    assert.ok(Buffer.byteLength(text) <= MAX_PUSH_PAYLOAD_BYTES, `${Buffer.byteLength(text)} bytes`);
    const payload = parse(text);
    assert.equal(payload['body'], '', 'the body goes first');
    assert.ok(!/[\ud800-\udbff]$/.test(payload['agent'] as string));
    assert.ok((payload['answer'] as { token: string }).token === answer.token, 'the answer is never cut');
  });

  it('leaves out the answer when nothing can be answered, and the actions once it ended', () => {
    assert.equal(
      parse(pushPayload(stored({ actions: [] }), { privacy: 'full', answer, shortened: false }))['answer'],
      undefined,
    );
    const ended = parse(
      pushPayload(stored({ status: 'resolved' }), { privacy: 'full', answer, shortened: false }),
    );
    assert.deepEqual([ended['status'], ended['actions'], ended['answer']], ['resolved', [], undefined]);
  });
});

describe('pushPayload, continued', () => {
  it('carries what the service worker shows and answers with, in full', () => {
    const text = pushPayload(stored({ project: 'notify', agent: 'claude-code' }), {
      privacy: 'full',
      answer,
      shortened: false,
    });
    assert.deepEqual(parse(text), {
      id: 'n1',
      lifecycle: 1,
      revision: 1,
      status: 'active',
      title: 'Run this?',
      body: 'npm publish',
      agent: 'claude-code',
      project: 'notify',
      type: 'permission_required',
      priority: 'high',
      actions: [{ id: 'allow', label: 'Allow' }],
      answer,
    });
  });

  it('leaves the project out when there is none, and the answer when no link was made', () => {
    const payload = parse(pushPayload(stored(), { privacy: 'full', shortened: false }));
    assert.equal('project' in payload, false);
    assert.equal('answer' in payload, false);
    assert.deepEqual(payload['actions'], [{ id: 'allow', label: 'Allow' }]);
  });

  it("'title' shows the title and project but never the message", () => {
    const payload = parse(
      pushPayload(stored({ project: 'notify' }), { privacy: 'title', answer, shortened: false }),
    );
    assert.deepEqual([payload['title'], payload['body'], payload['project']], ['Run this?', '', 'notify']);
    assert.deepEqual(payload['answer'], answer, 'the buttons still answer');
  });

  it("'generic' shows neither title, message nor project", () => {
    const payload = parse(
      pushPayload(stored({ project: 'notify' }), { privacy: 'generic', answer, shortened: false }),
    );
    assert.deepEqual([payload['title'], payload['body'], 'project' in payload], [GENERIC_TITLE, '', false]);
    assert.equal(GENERIC_TITLE, 'An agent needs you');
  });

  it('never carries a message the route keeps on the laptop, even with full text chosen', () => {
    const payload = parse(
      pushPayload(stored({ message_included: false }), { privacy: 'full', answer, shortened: false }),
    );
    assert.equal(payload['body'], '');
    assert.equal(payload['title'], 'Run this?');
  });

  it('shortened after a 413: no body, no project, the title cut to 60 characters with an ellipsis', () => {
    const title = `${'t'.repeat(59)}xyz`;
    const payload = parse(
      pushPayload(stored({ title, project: 'notify' }), { privacy: 'full', answer, shortened: true }),
    );
    assert.equal(payload['title'], `${'t'.repeat(59)}…`);
    assert.equal(payload['body'], '');
    assert.equal('project' in payload, false);
    assert.deepEqual(payload['answer'], answer);
    const sixty = 'u'.repeat(60);
    assert.equal(
      parse(pushPayload(stored({ title: sixty }), { privacy: 'full', shortened: true }))['title'],
      sixty,
      'a title of 60 characters is kept whole',
    );
  });

  it('cuts the body no more than it must: the payload then fills the 2 KB exactly, ending in an ellipsis', () => {
    const text = pushPayload(stored({ message: 'm'.repeat(4000) }), {
      privacy: 'full',
      answer,
      shortened: false,
    });
    assert.equal(Buffer.byteLength(text), MAX_PUSH_PAYLOAD_BYTES);
    const payload = parse(text);
    assert.match(payload['body'] as string, /^m+…$/);
    assert.equal(payload['title'], 'Run this?', 'the title is left alone while the body can give');
  });

  it('keeps a payload of exactly 2 KB whole', () => {
    const base = Buffer.byteLength(
      pushPayload(stored({ message: 'm' }), { privacy: 'full', shortened: false }),
    );
    const message = 'm'.repeat(MAX_PUSH_PAYLOAD_BYTES - base + 1);
    const payload = parse(pushPayload(stored({ message }), { privacy: 'full', shortened: false }));
    assert.equal(payload['body'], message);
  });

  it('cuts the project after the body, then the title, then the agent, each no more than it must', () => {
    const escaped = (code: number, count: number) => String.fromCharCode(code).repeat(count);
    const projectCut = parse(
      pushPayload(stored({ message: 'm'.repeat(400), project: escaped(1, 200), title: escaped(2, 200) }), {
        privacy: 'full',
        shortened: false,
      }),
    );
    assert.equal(projectCut['body'], '');
    assert.equal(projectCut['title'], escaped(2, 200), 'the title is whole while the project can give');
    assertCut(projectCut['project'], '\u0001');

    const titleCut = pushPayload(
      stored({
        title: escaped(2, 200),
        agent: escaped(3, 100),
        project: escaped(1, 200),
        actions: [1, 2, 3].map((n) => ({ id: `a${n}`, label: escaped(4, 40) })),
      }),
      {
        privacy: 'full',
        shortened: false,
      },
    );
    const titled = parse(titleCut);
    assert.deepEqual([titled['body'], titled['project']], ['', '']);
    assertCut(titled['title'], '\u0002');
    assert.equal(titled['agent'], escaped(3, 100), 'the agent is cut last');
    assert.ok(Buffer.byteLength(titleCut) > MAX_PUSH_PAYLOAD_BYTES - 6, 'one more character would not fit');
  });
});

describe('pushPayload without a project', () => {
  it('cuts the title when the body is gone and there is no project to cut', () => {
    const text = pushPayload(
      stored({
        title: '\u0002'.repeat(200),
        agent: '\u0003'.repeat(100),
        actions: [1, 2, 3].map((n) => ({ id: `a${n}`, label: '\u0004'.repeat(40) })),
      }),
      { privacy: 'full', answer, shortened: false },
    );
    assert.ok(Buffer.byteLength(text) <= MAX_PUSH_PAYLOAD_BYTES);
    const payload = parse(text);
    assert.equal('project' in payload, false);
    assertCut(payload['title'], '\u0002');
  });
});

describe('answerable and the test push', () => {
  it('a push can answer only an active notification with actions', () => {
    assert.equal(answerable(stored()), true);
    assert.equal(answerable(stored({ actions: [] })), false);
    assert.equal(answerable(stored({ status: 'dismissed' })), false);
  });

  it('a person chooses among full text, the title only, or the generic line', () => {
    assert.deepEqual(PUSH_PRIVACY, ['full', 'title', 'generic']);
  });

  it('the test push says alerts reach this device, and offers nothing to answer', () => {
    assert.deepEqual(parse(testPayload()), {
      id: 'notify-relay-test',
      lifecycle: 1,
      revision: 1,
      status: 'active',
      title: 'Notify test',
      body: 'Alerts reach this device.',
      agent: 'notify-relay',
      type: 'test',
      priority: 'normal',
      actions: [],
    });
  });
});

describe('push headers', () => {
  it('urgency high for permission requests and critical ones only', () => {
    assert.equal(pushUrgency({ type: 'permission_required', priority: 'low' }), 'high');
    assert.equal(pushUrgency({ type: 'info', priority: 'critical' }), 'high');
    assert.equal(pushUrgency({ type: 'info', priority: 'high' }), 'normal');
    assert.equal(pushUrgency({ type: 'question', priority: 'normal' }), 'normal');
  });

  it('TTL until it can no longer be answered (a day after it arrived), a day for an ended one', () => {
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 0), 86_400);
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 86_000_000), 400);
    assert.equal(pushTtlSeconds({ status: 'active', receivedAt: 0 }, 90_000_000), 0);
    assert.equal(pushTtlSeconds({ status: 'resolved', receivedAt: 0 }, 90_000_000), 86_400);
    assert.equal(pushTtlSeconds({ status: 'dismissed', receivedAt: 0 }, 0), 86_400);
    assert.equal(
      pushTtlSeconds({ status: 'active', receivedAt: 0 }, 86_000_001),
      399,
      'whole seconds left, rounded down',
    );
    assert.equal(
      pushTtlSeconds({ status: 'active', receivedAt: 5_000_000 }, 0),
      86_400,
      'never more than a day',
    );
  });

  it('one Topic per notification, 32 base64url characters', () => {
    assert.match(pushTopic('i_1', 'n1'), /^[A-Za-z0-9_-]{32}$/);
    assert.equal(pushTopic('i_1', 'n1'), pushTopic('i_1', 'n1'));
    assert.notEqual(pushTopic('i_1', 'n1'), pushTopic('i_2', 'n1'));
  });
});
