import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NotificationDto } from '../../src/domain/notification.js';
import { useBroker } from '../support/broker-process.js';
import { runNotify, startFakeBroker, type CannedReply, type RecordedRequest } from '../support/notify-cli.js';

describe('notify get, resolve and dismiss against a real broker', () => {
  const broker = useBroker();

  const run = (...args: string[]) => runNotify(args, { env: broker.home.env });
  const create = async (title: string) =>
    (await (
      await broker.request('POST', '/v1/notifications', { title, message: 'm' })
    ).json()) as NotificationDto;
  const printed = (stdout: string) => {
    const value = JSON.parse(stdout) as NotificationDto;
    assert.equal(stdout, `${JSON.stringify(value, null, 2)}\n`);
    return value;
  };

  it('get prints the notification as indented JSON', async () => {
    const notification = await create('get me');
    const result = await run('get', notification.id);
    assert.equal(result.code, 0);
    assert.deepEqual(printed(result.stdout), notification);
  });

  it('resolve prints the notification with status resolved', async () => {
    const notification = await create('resolve me');
    const result = await run('resolve', notification.id);
    assert.equal(result.code, 0);
    const resolved = printed(result.stdout);
    assert.equal(resolved.status, 'resolved');
    assert.ok(resolved.resolvedAt);
  });

  it('dismiss prints the notification with status dismissed', async () => {
    const notification = await create('dismiss me');
    const result = await run('dismiss', notification.id);
    assert.equal(result.code, 0);
    assert.equal(printed(result.stdout).status, 'dismissed');
  });

  for (const command of ['get', 'resolve', 'dismiss']) {
    it(`${command} exits 3 with the HTTP error line when the id is unknown`, async () => {
      const result = await run(command, 'no-such-id');
      assert.deepEqual(result, {
        code: 3,
        stdout: '',
        stderr: 'Error 404 Not Found: notification not found\n',
      });
    });

    for (const args of [[], ['--port', '1'], ['-x']]) {
      it(`${command} requires an id first (args: [${args.join(' ')}])`, async () => {
        const result = await run(command, ...args);
        assert.deepEqual(result, {
          code: 1,
          stdout: '',
          stderr: `${command} requires an <id>. Usage: notify ${command} <id>.\n`,
        });
      });
    }

    it(`${command} accepts only --port and --token after the id`, async () => {
      const result = await run(command, 'some-id', '--json');
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `unknown option '--json' for ${command}. Run 'notify help ${command}'.\n`,
      });
    });

    it(`${command} exits 1, not 3, when the token is refused`, async () => {
      const result = await run(command, 'some-id', '--token', 'wrong');
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        /^Error 401 Unauthorized: unauthorized\nHint: the token given with --token/,
      );
    });
  }

  it('resolve exits 1 with the broker message on an illegal transition', async () => {
    const notification = await create('dismissed first');
    await run('dismiss', notification.id);
    const result = await run('resolve', notification.id);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error 400 Bad Request: .+\n$/);
  });
});

describe('notify dismiss fallback to PATCH', () => {
  const dto = { id: 'n1', status: 'dismissed' };
  const withBroker = async (reply: (request: RecordedRequest) => CannedReply) => {
    const fake = await startFakeBroker(reply);
    const result = await runNotify(['dismiss', 'n1', '--port', String(fake.port), '--token', 't'], {
      env: { PATH: process.env['PATH'], HOME: '/nonexistent' },
    });
    await fake.close();
    return { result, calls: fake.requests.map((r) => `${r.method} ${r.url} ${r.body}`) };
  };

  it('retries as PATCH status dismissed when POST dismiss answers 404', async () => {
    const { result, calls } = await withBroker((request) =>
      request.method === 'POST'
        ? { status: 404, body: '{"error":"not here"}' }
        : { status: 200, body: JSON.stringify(dto) },
    );
    assert.deepEqual(calls, [
      'POST /v1/notifications/n1/dismiss ',
      'PATCH /v1/notifications/n1 {"status":"dismissed"}',
    ]);
    assert.deepEqual(result, { code: 0, stdout: `${JSON.stringify(dto, null, 2)}\n`, stderr: '' });
  });

  it('exits 3 with the PATCH error when the PATCH answers 404 too', async () => {
    const { result, calls } = await withBroker((request) => ({
      status: 404,
      body: JSON.stringify({ error: `${request.method} missed` }),
    }));
    assert.equal(calls.length, 2);
    assert.deepEqual(result, { code: 3, stdout: '', stderr: 'Error 404 Not Found: PATCH missed\n' });
  });

  it('does not fall back on other errors of POST dismiss', async () => {
    const { result, calls } = await withBroker(() => ({ status: 500, body: '{"error":"boom"}' }));
    assert.equal(calls.length, 1);
    assert.deepEqual(result, { code: 1, stdout: '', stderr: 'Error 500 Internal Server Error: boom\n' });
  });
});
