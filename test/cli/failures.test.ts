import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTempHome, freePort, type TempHome } from '../support/broker-process.js';
import { runNotify, startFakeBroker, startSilentServer } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

/** Spec "Exit codes" and the failure messages, for every broker command. */
const COMMANDS: Record<string, string[]> = {
  send: ['send', 'Title'],
  positional: ['Title'],
  list: ['list'],
  get: ['get', 'n1'],
  resolve: ['resolve', 'n1'],
  dismiss: ['dismiss', 'n1'],
};

describe('notify failures', () => {
  let home: TempHome;
  before(() => {
    home = createTempHome();
  });
  after(() => home.cleanup());
  const run = (args: string[], port: number) =>
    runNotify([...args, '--port', String(port), '--token', 't'], { env: home.env });

  for (const [name, args] of Object.entries(COMMANDS)) {
    it(`${name}: prints both connection lines, then how to start the broker, and exits 1 when nothing listens`, async () => {
      const port = await freePort();
      const result = await run(args, port);
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `Could not reach Notify at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\nIs the tray app running?\nHint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.\n`,
      });
    });
  }

  for (const args of [['count'], ['settings', 'get'], ['providers', 'list'], ['watch']]) {
    it(`notifyctl ${args.join(' ')}: the connection line, notifyd named instead of a tray app, and the hint when nothing listens`, async () => {
      const port = await freePort();
      const result = await runNotifyctl([...args, '--port', String(port), '--token', 't'], { env: home.env });
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `Could not reach Notify at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\nIs notifyd running?\nHint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.\n`,
      });
    });
  }

  it('gives up after 10 seconds when the broker accepts and never answers', { timeout: 30_000 }, async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const result = await run(COMMANDS['send']!, silent.port);
      const elapsed = Date.now() - started;
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: 'Notify did not respond before the request timed out.\n',
      });
      assert.ok(elapsed >= 10_000 && elapsed < 15_000, `took ${elapsed} ms`);
    } finally {
      await silent.close();
    }
  });

  /** [status, body, the line after the status] */
  const bodies: [number, string, string][] = [
    [400, '{"error":"title must be at most 200 characters"}', 'title must be at most 200 characters'],
    [500, 'upstream exploded', 'upstream exploded'],
    [502, '', '(empty response)'],
    [429, '{"error":"rate limit exceeded"}', 'rate limit exceeded'],
    [418, '{"other":"field"}', '{"other":"field"}'],
  ];
  for (const [status, body, detail] of bodies) {
    it(`prints "Error ${status} <Status>: ${detail}" for a ${status} with body ${JSON.stringify(body)}`, async () => {
      const fake = await startFakeBroker(() => ({ status, body }));
      const result = await run(COMMANDS['send']!, fake.port);
      await fake.close();
      const { STATUS_CODES } = await import('node:http');
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `Error ${status} ${STATUS_CODES[status]}: ${detail}\n`,
      });
    });
  }

  /** Spec "Exit codes": 2 only for send on 401/403, 3 only for get/resolve/dismiss on 404, else 1. */
  const exitCodes: [string, number, number][] = [
    ['send', 401, 2],
    ['send', 403, 2],
    ['positional', 403, 2],
    ['send', 404, 1],
    ['list', 401, 1],
    ['list', 403, 1],
    ['list', 404, 1],
    ['get', 403, 1],
    ['get', 404, 3],
    ['resolve', 404, 3],
    ['resolve', 500, 1],
    ['dismiss', 404, 3],
    ['dismiss', 403, 1],
  ];
  for (const [name, status, code] of exitCodes) {
    it(`${name} exits ${code} when the broker answers ${status}`, async () => {
      const fake = await startFakeBroker(() => ({ status, body: '{"error":"nope"}' }));
      const result = await run(COMMANDS[name]!, fake.port);
      await fake.close();
      assert.equal(result.code, code);
      // A 401 is followed by the hint naming where the token came from; every other status stands alone.
      const hint = status === 401 ? "Hint: the token given with --token is not the broker's\\. .*\\n" : '';
      assert.match(result.stderr, new RegExp(`^Error ${status} [A-Za-z ]+: nope\\n${hint}$`));
    });
  }
});
