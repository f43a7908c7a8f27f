import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort, useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { callJson, OUTBOX_BROKER, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Answer, type Receiver } from '../support/receiver.js';
import type { ProcessResult } from '../support/run-node.js';
import { waitFor } from '../support/wait-for.js';

/** The provider's secret: it reaches the receiver, and never any output of notifyctl. */
const SECRET = 'tok-Zq8-never-printed-41c7';
/** A timestamp as the API and notifyctl print them. */
const AT = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d`;
/** How `outbox list` writes a time, as its waiting items do: 14:02:05 today, with the date on another day. */
const LOCAL_TIME = String.raw`(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d`;

describe('notifyctl providers list/test/enable/disable/remove, routes, outbox list/retry/purge', () => {
  const broker = useBroker({ script: OUTBOX_BROKER });
  let receiver: Receiver;
  const answerWith = (status: number) => (receiver.answer = (): Answer => ({ status }));

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  const api = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);

  /**
   * Runs the real notifyctl against the test broker (the port right after the command, so an option
   * that ends the line stays without its value); no run may print the secret, whatever it does.
   */
  async function ctl(args: string[], stdin?: string): Promise<ProcessResult> {
    const [command, ...rest] = args;
    const result = await runNotifyctl([command!, '--port', String(broker.port), ...rest], {
      env: broker.home.env,
      ...(stdin !== undefined && { stdin }),
    });
    assert.ok(!result.stdout.includes(SECRET), `the secret on stdout of ${args.join(' ')}`);
    assert.ok(!result.stderr.includes(SECRET), `the secret on stderr of ${args.join(' ')}`);
    return result;
  }

  /** A run that succeeded with nothing on stderr; returns its stdout. */
  async function ok(args: string[], stdin?: string): Promise<string> {
    const result = await ctl(args, stdin);
    assert.equal(result.stderr, '', `stderr of ${args.join(' ')}`);
    assert.equal(result.code, 0, `exit code of ${args.join(' ')}`);
    return result.stdout;
  }

  let secretId = '';
  let plainId = '';
  let routeId = '';

  describe('providers', () => {
    it('lists no providers before there are any', async () => {
      assert.equal(await ok(['providers', 'list']), '(no providers)\n');
      assert.deepEqual(JSON.parse(await ok(['providers', 'list', '--json'])), []);
    });

    it('lists each provider with its health, and with --json which secrets are set, never their values', async () => {
      secretId = JSON.parse(
        await ok(
          [
            'providers',
            'add',
            'test-http',
            '--name',
            'rx',
            '--set',
            `url=${receiver.url}`,
            '--secret',
            'token',
            '--json',
          ],
          `${SECRET}\n`,
        ),
      ).id;
      plainId = JSON.parse(
        await ok([
          'providers',
          'add',
          'test-http',
          '--name',
          'plain',
          '--set',
          `url=${receiver.url}`,
          '--json',
        ]),
      ).id;

      const lines = (await ok(['providers', 'list'])).trimEnd().split('\n').sort();
      assert.deepEqual(
        lines,
        [
          `${secretId} rx [test-http] disabled health=unknown (never used)`,
          `${plainId} plain [test-http] disabled health=unknown (never used)`,
        ].sort(),
      );

      const listed = JSON.parse(await ok(['providers', 'list', '--json'])) as Body[];
      const byId = new Map(listed.map((provider) => [provider['id'], provider]));
      for (const [id, name, secretSet] of [
        [secretId, 'rx', true],
        [plainId, 'plain', false],
      ] as const) {
        const provider = byId.get(id)!;
        assert.equal(provider['name'], name);
        assert.equal(provider['enabled'], false);
        assert.equal(provider['health'], 'unknown');
        assert.equal(provider['lastResult'], null);
        assert.deepEqual(provider['settings'], { url: receiver.url });
        assert.deepEqual(provider['secrets'], { token: secretSet });
      }
    });

    // Each row: what the receiver answers the Test action, and what the user then sees.
    const tests = [
      {
        answer: 400,
        json: false,
        code: 1,
        say: "Test HTTP refused the test notification: the receiver answered HTTP 400; check the provider's settings.",
        health: 'failing',
        last: { outcome: 'reject', reason: 'http_400', status: 400 },
        line: 'reject http_400',
      },
      {
        answer: 503,
        json: true,
        code: 1,
        say: 'Test HTTP did not take the test notification: the receiver answered HTTP 503; a real notification would be retried.',
        health: 'failing',
        last: { outcome: 'retry', reason: 'http_503', status: 503 },
        line: 'retry http_503',
      },
      {
        answer: 200,
        json: false,
        code: 0,
        say: 'Test HTTP accepted the test notification (HTTP 200).',
        health: 'ok',
        last: { outcome: 'delivered', status: 200 },
        line: 'delivered',
      },
      {
        answer: 204,
        json: true,
        code: 0,
        say: 'Test HTTP accepted the test notification (HTTP 204).',
        health: 'ok',
        last: { outcome: 'delivered', status: 204 },
        line: 'delivered',
      },
    ];
    for (const row of tests) {
      it(`providers test${row.json ? ' --json' : ''} against a receiver answering ${row.answer}: exit ${row.code}, health ${row.health}`, async () => {
        answerWith(row.answer);
        const before = receiver.received.length;
        const result = await ctl(['providers', 'test', secretId, ...(row.json ? ['--json'] : [])]);
        assert.equal(result.code, row.code);
        assert.equal(result.stderr, '');
        if (row.json) {
          const { reason, status, outcome } = row.last as {
            outcome: string;
            reason?: string;
            status: number;
          };
          assert.deepEqual(JSON.parse(result.stdout), {
            outcome,
            ...(reason !== undefined && { reason }),
            status,
            summary: row.say,
          });
        } else {
          assert.equal(result.stdout, `${row.say}\n`);
        }

        // One real request, with the provider's secret, although the provider is disabled.
        assert.equal(receiver.received.length, before + 1);
        const sent = receiver.received.at(-1)!;
        assert.equal(sent.body['event'], 'notification.test');
        assert.equal(sent.headers['authorization'], `Bearer ${SECRET}`);

        // Its result is the provider's last result, in the list and in the API.
        assert.match(
          await ok(['providers', 'list']),
          new RegExp(
            `^${secretId} rx \\[test-http\\] disabled health=${row.health} \\(${row.line} at ${AT}\\)$`,
            'm',
          ),
        );
        const shown = (await api('GET', `/v1/providers/${secretId}`)).body!;
        assert.equal(shown['health'], row.health);
        const { at, durationMs, ...last } = shown['lastResult'];
        assert.deepEqual(last, row.last);
        assert.match(at, new RegExp(`^${AT}$`));
        assert.equal(typeof durationMs, 'number');
      });
    }

    it('enables and disables a provider, printing its line or its JSON', async () => {
      assert.match(
        await ok(['providers', 'enable', plainId]),
        new RegExp(`^${plainId} plain \\[test-http\\] enabled health=unknown \\(never used\\)\\n$`),
      );
      assert.equal((await api('GET', `/v1/providers/${plainId}`)).body!['enabled'], true);

      const disabled = JSON.parse(await ok(['providers', 'disable', plainId, '--json']));
      assert.equal(disabled['id'], plainId);
      assert.equal(disabled['enabled'], false);
      assert.equal((await api('GET', `/v1/providers/${plainId}`)).body!['enabled'], false);

      const enabled = JSON.parse(await ok(['providers', 'enable', secretId, '--json']));
      assert.deepEqual([enabled['enabled'], enabled['secrets']], [true, { token: true }]);
      assert.equal((await api('GET', `/v1/providers/${secretId}`)).body!['enabled'], true);
    });
  });

  describe('routes', () => {
    it('lists routes as JSON with every field', async () => {
      routeId = JSON.parse(
        await ok([
          'routes',
          'add',
          '--provider',
          secretId,
          '--min-priority',
          'low',
          '--project',
          'api',
          '--json',
        ]),
      ).id;
      const listed = JSON.parse(await ok(['routes', 'list', '--json'])) as Body[];
      assert.equal(listed.length, 1);
      const { createdAt, updatedAt, ...route } = listed[0]!;
      assert.deepEqual(route, {
        id: routeId,
        name: 'route to rx',
        providerId: secretId,
        enabled: false,
        minimumPriority: 'low',
        typeId: null,
        project: 'api',
        agent: null,
        includeMessage: true,
        delaySeconds: 0,
        sendDuringQuietHours: false,
      });
      assert.match(createdAt, new RegExp(`^${AT}$`));
      assert.match(updatedAt, new RegExp(`^${AT}$`));
    });

    it('disables an enabled route and says so', async () => {
      await ok(['routes', 'enable', routeId]);
      assert.equal(
        await ok(['routes', 'disable', routeId]),
        `${routeId} route to rx -> ${secretId} disabled (priority>=low, project=api)\n`,
      );
      assert.equal((await api('GET', `/v1/routes/${routeId}`)).body!['enabled'], false);
      const json = JSON.parse(await ok(['routes', 'disable', routeId, '--json']));
      assert.deepEqual([json['id'], json['enabled']], [routeId, false]);
    });

    it('removes a route', async () => {
      const spare = JSON.parse(await ok(['routes', 'add', '--provider', plainId, '--json'])).id as string;
      assert.equal(await ok(['routes', 'remove', spare]), `Removed route ${spare}.\n`);
      assert.equal((await api('GET', `/v1/routes/${spare}`)).status, 404);
      const spare2 = JSON.parse(await ok(['routes', 'add', '--provider', plainId, '--json'])).id as string;
      assert.deepEqual(JSON.parse(await ok(['routes', 'remove', spare2, '--json'])), { removed: spare2 });
      assert.deepEqual(
        (await api('GET', '/v1/routes')).body!.map((route: Body) => route['id']),
        [routeId],
      );
    });
  });

  describe('outbox', () => {
    let notificationId = '';
    let itemId = 0;

    it('lists a dead-lettered item by state, in lines and as JSON', async () => {
      await ok(['routes', 'enable', routeId]);
      answerWith(400);
      notificationId = (
        await api('POST', '/v1/notifications', { title: 'Build failed', message: 'tests', project: 'api' })
      ).body!['id'];
      await waitFor(async () => (await api('GET', '/v1/outbox/counts')).body!['dead'] === 1, 'the dead item');

      const dead = JSON.parse(await ok(['outbox', 'list', '--state', 'dead', '--json'])) as Body[];
      assert.equal(dead.length, 1);
      const item = dead[0]!;
      itemId = item['id'];
      assert.deepEqual(
        [item['state'], item['operation'], item['notificationId'], item['providerId'], item['routeId']],
        ['dead', 'send', notificationId, secretId, routeId],
      );
      assert.deepEqual([item['attempts'], item['lastReason'], item['lastStatus']], [1, 'http_400', 400]);
      assert.equal(item['nextAttemptAt'], null);

      const line = `${itemId} dead send ${notificationId} -> rx (${secretId}) attempts=1 last=http_400\n`;
      assert.equal(await ok(['outbox', 'list', '--state', 'dead']), line);
      assert.equal(await ok(['outbox', 'list']), line);
      for (const state of ['pending', 'in_flight', 'delivered']) {
        assert.equal(await ok(['outbox', 'list', '--state', state]), '(no items)\n', state);
        assert.deepEqual(JSON.parse(await ok(['outbox', 'list', '--state', state, '--json'])), [], state);
      }
    });

    it('retries a dead item: it is back in line with fresh attempts and is delivered', async () => {
      answerWith(200);
      const retried = await ok(['outbox', 'retry', String(itemId)]);
      assert.match(
        retried,
        new RegExp(
          `^${itemId} pending send ${notificationId} -> rx \\(${secretId}\\) attempts=0 last=http_400 next=${LOCAL_TIME}\\n$`,
        ),
      );
      await waitFor(
        async () => (await api('GET', '/v1/outbox/counts')).body!['delivered'] === 1,
        'the delivery',
      );
      assert.equal(
        await ok(['outbox', 'list', '--state', 'delivered']),
        `${itemId} delivered send ${notificationId} -> rx (${secretId}) attempts=1\n`,
      );
      const attempts = receiver.received.filter(
        (request) => request.body['event'] === 'notification.created',
      );
      assert.equal(attempts.length, 2);
      assert.equal(attempts[0]!.headers['idempotency-key'], attempts[1]!.headers['idempotency-key']);
      assert.equal(attempts[1]!.headers['authorization'], `Bearer ${SECRET}`);
    });

    it('refuses to retry an item that is not dead, with the broker error', async () => {
      const result = await ctl(['outbox', 'retry', String(itemId)]);
      assert.deepEqual(
        [result.code, result.stdout, result.stderr],
        [1, '', 'Error 400 Bad Request: only a dead item can be retried; this one is delivered\n'],
      );
    });

    it('purges delivered items, keeping the send of a notification that still exists', async () => {
      assert.equal(await ok(['outbox', 'purge']), 'Purged 0 delivered item(s).\n');
      await api('PATCH', `/v1/notifications/${notificationId}`, { status: 'resolved' });
      await waitFor(
        async () => (await api('GET', '/v1/outbox/counts')).body!['delivered'] === 2,
        'the clear',
      );
      assert.deepEqual(JSON.parse(await ok(['outbox', 'purge', '--json'])), { purged: 1 });
      const left = (await api('GET', '/v1/outbox')).body!;
      assert.deepEqual(
        left.map((item: Body) => [item['id'], item['operation'], item['state']]),
        [[itemId, 'send', 'delivered']],
      );
      assert.deepEqual((await api('GET', '/v1/outbox/counts')).body, {
        waiting: 0,
        pending: 0,
        in_flight: 0,
        delivered: 1,
        dead: 0,
        cancelled: 0,
      });
    });
  });

  describe('unknown ids and missing arguments', () => {
    // Without a subcommand, a group prints its usage (from its list of subcommands) on stderr; a
    // subcommand's summary follows on its line, or under it when the group's lines would pass 100 columns.
    const usage = (group: string, summary: string, first: string) =>
      `notifyctl ${group}: ${summary}\n\nUsage:\n  notifyctl ${group} ${first}`;
    const providersUsage = usage(
      'providers',
      'outbound delivery providers (where notifications are forwarded).',
      'list',
    );
    const routesUsage = usage(
      'routes',
      'delivery routes (which notifications go to which provider).',
      'list',
    );
    const outboxUsage = usage(
      'outbox',
      'outbound delivery items: list, counts, retry a dead one, purge delivered.',
      'list [--state STATE] [--limit N]',
    );
    // Each row: the arguments, the exit code (3 for an unknown id, as for `notify get`, else 1) and
    // stderr (the broker's error, or the mistake), or the start of the usage; nothing on stdout.
    const rows: { args: string[]; code?: number; stderr: string; usage?: string }[] = [
      ...['show', 'enable', 'disable', 'remove', 'test'].map((action) => ({
        args: ['providers', action, 'no-such-provider'],
        code: 3,
        stderr: 'Error 404 Not Found: provider not found\n',
      })),
      ...['show', 'enable', 'disable', 'remove'].map((action) => ({
        args: ['routes', action, 'no-such-route'],
        code: 3,
        stderr: 'Error 404 Not Found: route not found\n',
      })),
      {
        args: ['outbox', 'retry', '424242'],
        code: 3,
        stderr: 'Error 404 Not Found: outbox item not found\n',
      },
      { args: ['outbox', 'retry', 'abc'], code: 3, stderr: 'Error 404 Not Found: outbox item not found\n' },
      {
        args: ['outbox', 'list', '--state', 'stuck'],
        stderr:
          'Error 400 Bad Request: state must be one of waiting, pending, in_flight, delivered, dead, cancelled\n',
      },
      {
        args: ['routes', 'add', '--provider', 'no-such-provider'],
        stderr: 'Error 400 Bad Request: providerId must name an existing provider (see GET /v1/providers)\n',
      },
      ...['show', 'enable', 'disable', 'remove', 'test'].map((action) => ({
        args: ['providers', action],
        stderr: `Usage: notifyctl providers ${action} <id>\n`,
      })),
      ...['show', 'enable', 'disable', 'remove'].map((action) => ({
        args: ['routes', action],
        stderr: `Usage: notifyctl routes ${action} <id>\n`,
      })),
      { args: ['outbox', 'retry'], stderr: 'Usage: notifyctl outbox retry <id>\n' },
      { args: ['providers'], stderr: '', usage: providersUsage },
      { args: ['routes'], stderr: '', usage: routesUsage },
      { args: ['outbox'], stderr: '', usage: outboxUsage },
      {
        args: ['outbox', 'frob'],
        stderr: "notifyctl outbox: unknown subcommand 'frob'. Run 'notifyctl outbox --help'.\n",
      },
      { args: ['providers', 'add'], stderr: 'Usage: notifyctl providers add <kind> [options]\n' },
      {
        args: ['providers', 'add', 'pager'],
        stderr: "unknown provider kind 'pager' (known: test-http).\n",
      },
      { args: ['routes', 'add'], stderr: 'Usage: notifyctl routes add --provider ID [options]\n' },
      { args: ['outbox', 'list', '--limit'], stderr: '--limit requires a value.\n' },
      {
        args: ['providers', 'list', '--verbose'],
        stderr: "unknown option '--verbose' for providers list. Run 'notifyctl providers --help'.\n",
      },
    ];
    for (const row of rows) {
      const code = row.code ?? 1;
      it(`notifyctl ${row.args.join(' ')}: exit ${code}, ${row.stderr.split('\n')[0] || 'the usage'}`, async () => {
        const result = await ctl(row.args);
        assert.equal(result.code, code);
        assert.equal(result.stdout, '');
        if (row.usage) {
          assert.ok(result.stderr.startsWith(row.stderr + row.usage), result.stderr);
          assert.ok(result.stderr.endsWith('See docs/notifyctl.md.\n'), result.stderr);
        } else {
          assert.equal(result.stderr, row.stderr);
        }
      });
    }

    it('changed nothing', async () => {
      assert.equal((await api('GET', '/v1/providers')).body!.length, 2);
      assert.equal((await api('GET', '/v1/routes')).body!.length, 1);
    });
  });

  describe('a refused token and a broker that is not there', () => {
    const commands = [
      ['providers', 'list'],
      ['routes', 'list', '--json'],
      ['outbox', 'counts'],
    ];
    for (const args of commands) {
      it(`notifyctl ${args.join(' ')} with a wrong token: the 401 line and its hint, exit 2`, async () => {
        const result = await ctl([...args, '--token', 'not-the-token']);
        assert.deepEqual(
          [result.code, result.stdout, result.stderr],
          [
            2,
            '',
            'Error 401 Unauthorized: unauthorized\n' +
              `Hint: the token given with --token is not the broker's. 'notify token' prints the one in ${broker.home.configFile}; leave --token out to use it.\n`,
          ],
        );
      });

      it(`notifyctl ${args.join(' ')} with no broker on the port: says notifyd is not running, exit 1`, async () => {
        const port = await freePort();
        const result = await ctl([...args, '--port', String(port)]);
        assert.equal(result.code, 1);
        assert.equal(result.stdout, '');
        const lines = result.stderr.trimEnd().split('\n');
        assert.match(lines[0]!, new RegExp(`^Could not reach Notify at http://127\\.0\\.0\\.1:${port}: `));
        assert.deepEqual(lines.slice(1), [
          'Is notifyd running?',
          "Hint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.",
        ]);
      });
    }
  });

  describe('providers remove', () => {
    it('removes a provider and its routes', async () => {
      assert.equal(
        await ok(['providers', 'remove', secretId]),
        `Removed provider ${secretId} and its routes.\n`,
      );
      assert.equal((await api('GET', `/v1/providers/${secretId}`)).status, 404);
      assert.equal((await api('GET', `/v1/routes/${routeId}`)).status, 404);
      assert.deepEqual((await api('GET', '/v1/routes')).body, []);

      assert.deepEqual(JSON.parse(await ok(['providers', 'remove', plainId, '--json'])), {
        removed: plainId,
      });
      assert.equal(await ok(['providers', 'list']), '(no providers)\n');
      const again = await ctl(['providers', 'remove', plainId]);
      assert.deepEqual([again.code, again.stderr], [3, 'Error 404 Not Found: provider not found\n']);
    });
  });
});
