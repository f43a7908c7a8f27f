import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker, useBroker } from '../support/broker-process.js';
import { within } from '../support/wait-for.js';
import { SseReader } from '../support/sse-reader.js';
import { HttpError } from '../../src/client/errors.js';
import { NotifyClient } from '../../src/client/notify-client.js';

type Dto = Record<string, unknown> & {
  id: string;
  status: string;
  actions?: { id: string; label: string }[];
  answer?: { action: string; surface: string; answeredAt: string };
};

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

type Setup = 'active' | 'answered' | 'resolved' | 'dismissed' | 'without-actions' | 'missing';

/** POST /v1/notifications/{id}/answer: the state the notification is in, the body, what it answers. */
const ANSWER_TABLE: [setup: Setup, body: unknown, status: number, error?: string][] = [
  ['active', { action: 'allow' }, 200],
  ['active', { action: 'deny', surface: 'web' }, 200],
  ['active', { action: 'allow', surface: 'relay' }, 200],
  ['active', { action: 'allow', surface: 'web', revision: 1 }, 200],
  [
    'active',
    { action: 'allow', revision: 2 },
    409,
    'this request changed after it was shown (revision 2 answered, now revision 1); look at it again and answer what it asks now',
  ],
  [
    'active',
    { action: 'allow', revision: '1' },
    400,
    'revision must be a whole number from 1: the revision of the notification that was shown',
  ],
  ['answered', { action: 'deny' }, 409, 'notification already answered: allow (from cli)'],
  ['answered', { action: 'allow' }, 409, 'notification already answered: allow (from cli)'],
  [
    'active',
    { action: 'maybe' },
    400,
    'unknown action "maybe"; this notification\'s actions are allow, deny',
  ],
  ['without-actions', { action: 'allow' }, 400, 'notification has no actions to answer'],
  [
    'resolved',
    { action: 'allow' },
    409,
    'notification is resolved; only an active notification can be answered',
  ],
  [
    'dismissed',
    { action: 'allow' },
    409,
    'notification is dismissed; only an active notification can be answered',
  ],
  ['missing', { action: 'allow' }, 404, 'notification not found'],
  ['active', {}, 400, 'action is required'],
  ['active', { action: 7 }, 400, "action must be the id of one of the notification's actions"],
  [
    'active',
    { action: 'allow', surface: 'toast' },
    400,
    'surface must be one of cli, web, relay (toast and tray answers come from the broker itself)',
  ],
  [
    'active',
    { action: 'allow', why: 'x' },
    400,
    'unknown field "why"; allowed fields are action, surface, revision',
  ],
  ['active', [], 400, 'request body must be a JSON object'],
];

describe('answers: the API', () => {
  const broker = useBroker();
  const json = async (response: Response) => (await response.json()) as Dto;
  const create = async (extra: Record<string, unknown> = { actions: ACTIONS }) => {
    const response = await broker.request('POST', '/v1/notifications', {
      title: 't',
      message: 'm',
      ...extra,
    });
    assert.equal(response.status, 201);
    return json(response);
  };
  const answer = (id: string, body: unknown) =>
    broker.request('POST', `/v1/notifications/${id}/answer`, body);
  const get = async (id: string) => json(await broker.request('GET', `/v1/notifications/${id}`));

  const inState = async (setup: Setup): Promise<string> => {
    if (setup === 'missing') return '01JD4Z6V9Q8W7E5R3T1Y2U4I6O';
    const created = await create(setup === 'without-actions' ? {} : { actions: ACTIONS });
    if (setup === 'answered') assert.equal((await answer(created.id, { action: 'allow' })).status, 200);
    if (setup === 'resolved' || setup === 'dismissed') {
      const patched = await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: setup });
      assert.equal(patched.status, 200);
    }
    return created.id;
  };

  for (const [setup, body, status, error] of ANSWER_TABLE) {
    it(`answering ${setup} with ${JSON.stringify(body)} answers ${status}`, async () => {
      const id = await inState(setup);
      const before = setup === 'missing' ? undefined : await get(id);
      const response = await answer(id, body);
      assert.equal(response.status, status);
      if (status === 200) {
        const answered = await json(response);
        const request = body as { action: string; surface?: string };
        assert.equal(answered.status, 'resolved');
        assert.equal(answered.answer?.action, request.action);
        assert.equal(answered.answer?.surface, request.surface ?? 'cli');
        assert.equal(answered.answer?.answeredAt, answered.resolvedAt);
        assert.deepEqual(await get(id), answered);
      } else {
        assert.deepEqual(await response.json(), { error });
        if (before) assert.deepEqual(await get(id), before);
      }
    });
  }

  it('shows actions and answer only when set, and validates actions on create', async () => {
    const plain = await create({});
    assert.equal('actions' in plain, false);
    assert.equal('answer' in plain, false);
    const offered = await create({ actions: ACTIONS });
    assert.deepEqual(offered.actions, ACTIONS);
    assert.equal('answer' in offered, false);
    const refusals: [unknown, string][] = [
      [[], 'actions must be an array of 1 to 3 {id, label} objects'],
      [[...ACTIONS, ...ACTIONS], 'actions must be an array of 1 to 3 {id, label} objects'],
      [
        [{ id: 'Allow', label: 'Allow' }],
        'actions[0].id must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
      ],
      [[{ id: 'allow', label: 'x'.repeat(41) }], 'label must be at most 40 characters'],
      [[{ id: 'allow', label: ' ' }], 'label must not be empty'],
      [
        [
          { id: 'allow', label: 'A' },
          { id: 'allow', label: 'B' },
        ],
        'actions must have distinct ids',
      ],
      [[{ id: 'allow', label: 'A', url: 'x' }], 'unknown field "url"; allowed fields are id, label'],
    ];
    for (const [actions, error] of refusals) {
      const response = await broker.request('POST', '/v1/notifications', {
        title: 't',
        message: 'm',
        actions,
      });
      assert.equal(response.status, 400, JSON.stringify(actions));
      assert.deepEqual(await response.json(), { error });
    }
  });

  it('keeps only the first of two concurrent answers', async () => {
    const { id } = await create();
    const responses = await Promise.all([answer(id, { action: 'allow' }), answer(id, { action: 'deny' })]);
    assert.deepEqual(responses.map((response) => response.status).sort(), [200, 409]);
    const winner = await json(responses.find((response) => response.status === 200)!);
    assert.deepEqual((await get(id)).answer, winner.answer);
  });

  it('reopening drops the answer, so the notification can be answered again', async () => {
    const { id } = await create();
    await answer(id, { action: 'deny' });
    const reopened = await json(
      await broker.request('PATCH', `/v1/notifications/${id}`, { status: 'active' }),
    );
    assert.equal('answer' in reopened, false);
    assert.deepEqual(reopened.actions, ACTIONS);
    assert.equal((await answer(id, { action: 'allow' })).status, 200);
  });

  it('writes one audit line per answer with id, action and surface, never the text', async () => {
    const { id } = await create({ actions: ACTIONS, title: 'secret title', message: 'rm -rf build' });
    await answer(id, { action: 'deny', surface: 'web' });
    await waitForLog(broker.home, `answer: notification ${id} action deny surface web`);
    const lines = readLog(broker.home)
      .split('\n')
      .filter((line) => line.includes(id));
    assert.equal(lines.length, 1);
    assert.doesNotMatch(readLog(broker.home), /secret title|rm -rf build/);
  });

  it('streams notification.answered, then notification.resolved, with the answer', async () => {
    const { id } = await create();
    const reader = new SseReader(broker.port, { authorization: `Bearer ${broker.token}` });
    try {
      await reader.until((r) => r.status === 200);
      await answer(id, { action: 'allow', surface: 'relay' });
      await reader.until((r) => r.frames.some((frame) => frame.event === 'notification.resolved'));
      const frames = reader.frames.filter((frame) => frame.event?.startsWith('notification.'));
      assert.deepEqual(
        frames.map((frame) => frame.event),
        ['notification.answered', 'notification.resolved'],
      );
      for (const frame of frames) {
        const data = JSON.parse(frame.data!) as Dto;
        assert.equal(data.id, id);
        assert.deepEqual(
          { action: data.answer?.action, surface: data.answer?.surface },
          { action: 'allow', surface: 'relay' },
        );
      }
    } finally {
      reader.close();
    }
  });

  describe('the waiter: GET /v1/notifications/{id}/answer', () => {
    const wait = (id: string, query = '') => broker.request('GET', `/v1/notifications/${id}/answer${query}`);

    it('answers when the notification is answered while it waits', async () => {
      const { id } = await create();
      const waiting = wait(id, '?waitSeconds=30');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await answer(id, { action: 'deny' });
      const response = await waiting;
      assert.equal(response.status, 200);
      const outcome = await json(response);
      assert.equal(outcome.status, 'resolved');
      assert.equal(outcome.answer?.action, 'deny');
    });

    it('answers when the notification is dismissed while it waits', async () => {
      const { id } = await create();
      const waiting = wait(id, '?waitSeconds=30');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await broker.request('POST', `/v1/notifications/${id}/dismiss`);
      const outcome = await json(await waiting);
      assert.equal(outcome.status, 'dismissed');
      assert.equal('answer' in outcome, false);
    });

    it('answers at once for a finished notification, and with the active one at its deadline', async () => {
      const answered = await create();
      await answer(answered.id, { action: 'allow' });
      // Within seconds, not at the end of its 120: a hook asking about an answered request goes on at once.
      const atOnce = (id: string) =>
        within(wait(id, '?waitSeconds=120'), 'the answer for a notification that is no longer active');
      assert.equal((await json(await atOnce(answered.id))).answer?.action, 'allow');
      const dismissed = await create();
      await broker.request('POST', `/v1/notifications/${dismissed.id}/dismiss`);
      assert.equal((await json(await atOnce(dismissed.id))).status, 'dismissed');
      const open = await create();
      const outcome = await json(await wait(open.id, '?waitSeconds=1'));
      assert.equal(outcome.status, 'active');
      assert.deepEqual(await json(await wait(open.id)), outcome);
    });

    it('refuses a bad waitSeconds and an unknown id', async () => {
      const { id } = await create();
      for (const query of ['?waitSeconds=121', '?waitSeconds=-1', '?waitSeconds=soon']) {
        const response = await wait(id, query);
        assert.equal(response.status, 400);
        assert.deepEqual(await response.json(), { error: 'waitSeconds must be an integer from 0 to 120' });
      }
      const missing = await wait('01JD4Z6V9Q8W7E5R3T1Y2U4I6O', '?waitSeconds=1');
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { error: 'notification not found' });
    });
  });
});

describe('answers: a waiter when the broker stops', () => {
  it('gets the still-active notification at once instead of holding the stop', async () => {
    const broker = await startBroker();
    try {
      const created = await broker.request('POST', '/v1/notifications', {
        title: 't',
        message: 'm',
        actions: ACTIONS,
      });
      const { id } = (await created.json()) as Dto;
      const waiting = broker.request('GET', `/v1/notifications/${id}/answer?waitSeconds=120`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stopped = broker.stop();
      const response = await waiting;
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as Dto).status, 'active');
      assert.equal(await stopped, 0);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });
});

describe('answers: the typed client', () => {
  const broker = useBroker();

  it('answers and waits through NotifyClient.answer and awaitAnswer', async () => {
    const client = new NotifyClient({ baseUrl: broker.baseUrl, token: broker.token, timeoutMs: 5000 });
    const created = await client.create({ title: 't', message: 'm', actions: ACTIONS });
    const waiting = client.awaitAnswer(created.id, 3);
    const answered = await client.answer(created.id, 'deny', created.revision);
    assert.deepEqual(await waiting, answered);
    assert.equal(answered.answer?.surface, 'cli');
    await assert.rejects(
      client.answer(created.id, 'allow', created.revision),
      (error: HttpError) => error.status === 409,
    );
  });
});
