import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { ChangeFeed } from '../broker/change-feed.js';
import { ChangeStream } from '../broker/change-stream.js';
import { NotificationService } from '../broker/notification-service.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { answerHandlers } from './answer-routes.js';
import { createErrorHandler } from './errors.js';

const MAX_WAITERS = 2;
const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/** Fails with what never came when `promise` has not settled within `ms`, instead of hanging the test. */
function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

type Dto = {
  id: string;
  status: string;
  revision: number;
  title: string;
  answer?: { action: string; surface: string };
};

/**
 * Answering a request and waiting for its outcome (POST and GET /v1/notifications/{id}/answer), served
 * in process over a real database: what a hook waiting for the person's decision sees. Every wait has
 * a deadline of seconds, so a waiter that never answers fails the test instead of holding it.
 */
describe('answers and waiting for them', () => {
  let folder: string;
  let db: Db;
  let writes: WriteQueue;
  let changes: ChangeStream;
  let service: NotificationService;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'notify-answer-routes-'));
    db = openDatabase(join(folder, 'notify.db'));
    writes = new WriteQueue(db);
    changes = new ChangeStream(100, Date.now());
    const feed = new ChangeFeed();
    feed.subscribe((change) => changes.append(change));
    let next = 0;
    service = new NotificationService({
      store: new NotificationStore(db),
      writes,
      clock: () => Date.now(),
      newId: () => `n${++next}`,
      types: () => ({}),
      changes: feed,
    });
    const handlers = answerHandlers(service, { changes, maxSubscribers: MAX_WAITERS });
    app = Fastify();
    app.setErrorHandler(createErrorHandler({ info: () => {}, warn: () => {}, error: () => {} }));
    app.post('/v1/notifications/:id/answer', handlers.answer);
    app.get('/v1/notifications/:id/answer', handlers.wait);
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    changes.end();
    await app.close();
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const ask = async (key?: string) =>
    (
      await service.create({
        title: 'Run the tests?',
        message: 'm',
        type: 'permission_required',
        actions: ACTIONS,
        ...(key !== undefined && { key }),
      })
    ).record.id;
  const wait = (id: string, query = '', signal?: AbortSignal) =>
    fetch(`${baseUrl}/v1/notifications/${id}/answer${query}`, signal && { signal });
  const read = async (response: Response) => (await response.json()) as Dto;
  const answer = (id: string, body: unknown) =>
    fetch(`${baseUrl}/v1/notifications/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** Resolves once the broker holds `count` waiters: the GET has arrived and subscribed. */
  const waiters = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (changes.subscriberCount !== count) {
      if (Date.now() > deadline)
        assert.fail(`${count} waiter(s) never held (now ${changes.subscriberCount})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('records an answer and shows it; a second answer is refused', async () => {
    const id = await ask();
    const response = await answer(id, { action: 'allow', surface: 'web' });
    assert.equal(response.status, 200);
    const answered = await read(response);
    assert.equal(answered.status, 'resolved');
    assert.deepEqual(
      { action: answered.answer?.action, surface: answered.answer?.surface },
      { action: 'allow', surface: 'web' },
    );
    assert.equal((await answer(id, { action: 'deny' })).status, 409);
  });

  it('answers at once for a request resolved or dismissed before the wait, whatever waitSeconds says', async () => {
    const resolved = await ask();
    await service.answer(resolved, { action: 'deny' });
    const dismissed = await ask();
    await service.dismiss(dismissed);
    for (const [id, status] of [
      [resolved, 'resolved'],
      [dismissed, 'dismissed'],
    ] as const) {
      const response = await within(wait(id, '?waitSeconds=120'), `the wait on a ${status} request`);
      assert.equal(response.status, 200);
      assert.equal((await read(response)).status, status);
    }
    assert.equal(changes.subscriberCount, 0, 'nobody left waiting');
  });

  it('without waitSeconds, or with 0, answers the active request at once', async () => {
    const id = await ask();
    for (const query of ['', '?waitSeconds=0']) {
      const response = await within(wait(id, query), `the wait with "${query}"`);
      assert.equal((await read(response)).status, 'active');
    }
  });

  it('a waiter gets the answer the moment the person answers, and not the changes before it', async () => {
    const id = await ask();
    const other = await ask();
    const waiting = wait(id, '?waitSeconds=120');
    await waiters(1);
    await service.answer(other, { action: 'allow' });
    await service.create({ title: 'Run the tests? (reworded)', message: 'm', type: 'permission_required' });
    await service.answer(id, { action: 'deny' });
    const outcome = await read(await within(waiting, 'the answer reaching the waiter'));
    assert.equal(outcome.id, id);
    assert.equal(outcome.status, 'resolved');
    assert.equal(outcome.answer?.action, 'deny');
    assert.equal(changes.subscriberCount, 0);
  });

  it('a change that leaves the request active (its text reworded under its key) keeps the waiter waiting', async () => {
    const id = await ask('deploy-7');
    const waiting = wait(id, '?waitSeconds=120');
    await waiters(1);
    const reworded = await service.create({
      title: 'Deploy 7, now with the migration?',
      message: 'm',
      type: 'permission_required',
      actions: ACTIONS,
      key: 'deploy-7',
    });
    assert.equal(reworded.record.id, id, 'the same request, updated in place');
    await service.answer(id, { action: 'allow' });
    const outcome = await read(await within(waiting, 'the answer after the rewording'));
    assert.equal(outcome.status, 'resolved');
    assert.equal(outcome.answer?.action, 'allow');
  });

  it('a waiter gets a dismissal', async () => {
    const id = await ask();
    const waiting = wait(id, '?waitSeconds=120');
    await waiters(1);
    await service.dismiss(id);
    assert.equal(
      (await read(await within(waiting, 'the dismissal reaching the waiter'))).status,
      'dismissed',
    );
  });

  it('at its deadline, the waiter gets the request as it is then, not as it was when the wait began', async () => {
    const id = await ask('deploy-8');
    const waiting = wait(id, '?waitSeconds=1');
    await waiters(1);
    await service.create({
      title: 'Deploy 8, now with the migration?',
      message: 'm',
      type: 'permission_required',
      actions: ACTIONS,
      key: 'deploy-8',
    });
    const atDeadline = await read(await within(waiting, 'the answer at the 1 s deadline'));
    assert.deepEqual(
      [atDeadline.status, atDeadline.revision, atDeadline.title],
      ['active', 2, 'Deploy 8, now with the migration?'],
    );
    assert.equal(changes.subscriberCount, 0);
  });

  it('a stopping broker answers every waiter with the request as it is', async () => {
    const id = await ask();
    const waiting = wait(id, '?waitSeconds=120');
    await waiters(1);
    changes.end();
    const outcome = await read(await within(waiting, 'the answer when the broker stops'));
    assert.equal(outcome.status, 'active');
  });

  it('a waiter that hangs up leaves its place to the next one', async () => {
    const id = await ask();
    const gone = new AbortController();
    const first = wait(id, '?waitSeconds=120', gone.signal).catch(() => undefined);
    await waiters(1);
    gone.abort();
    await first;
    await waiters(0);
  });

  it('refuses one waiter more than the event stream has places for, with Retry-After', async () => {
    const id = await ask();
    const held = [wait(id, '?waitSeconds=120'), wait(id, '?waitSeconds=120')];
    await waiters(MAX_WAITERS);
    const refused = await within(wait(id, '?waitSeconds=5'), 'the refusal');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.deepEqual(await refused.json(), {
      error: 'too many open event streams and waiters (2); close one and try again',
    });
    const atOnce = await within(wait(id), 'a look without waiting while every place is taken');
    assert.equal(atOnce.status, 200, 'a look without waitSeconds takes no place');
    assert.equal((await read(atOnce)).status, 'active');
    await service.answer(id, { action: 'allow' });
    for (const response of await within(Promise.all(held), 'the held waiters'))
      assert.equal((await read(response)).status, 'resolved');
  });

  it('refuses a waitSeconds that is not a whole number from 0 to 120, and an unknown request', async () => {
    const id = await ask();
    for (const query of [
      '?waitSeconds=121',
      '?waitSeconds=-1',
      '?waitSeconds=1.5',
      '?waitSeconds=x',
      '?waitSeconds=',
    ]) {
      const response = await within(wait(id, query), query);
      assert.equal(response.status, 400, query);
      assert.deepEqual(
        await response.json(),
        { error: 'waitSeconds must be an integer from 0 to 120' },
        query,
      );
    }
    const last = await within(wait(id, '?waitSeconds=500&waitSeconds=0'), 'the last of two');
    assert.equal(last.status, 200, 'the last of two values counts');
    assert.equal((await within(wait('no-such-request', '?waitSeconds=1'), 'the unknown one')).status, 404);
  });
});
