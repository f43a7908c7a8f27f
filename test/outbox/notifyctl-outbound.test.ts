import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';
import { OUTBOX_BROKER } from '../support/outbox-broker.js';
import { runNode } from '../support/run-node.js';

describe('notifyctl providers, routes and outbox', () => {
  const broker = useBroker({ script: OUTBOX_BROKER });

  /** Runs notifyctl against the test broker with `stdin` piped in. */
  const ctl = (args: string[], stdin = '') =>
    runNode(NOTIFYCTL, [...args, '--port', String(broker.port)], { env: broker.home.env, stdin });

  let providerId = '';

  it('adds a provider disabled with its secret read from stdin, and never prints the secret', async () => {
    const added = await ctl(
      [
        'providers',
        'add',
        'test-http',
        '--name',
        'hook',
        '--set',
        'url=http://127.0.0.1:9/x',
        '--secret',
        'token',
        '--json',
      ],
      'stdin-secret-value\n',
    );
    assert.equal(added.code, 0, added.stderr);
    const provider = JSON.parse(added.stdout) as {
      id: string;
      enabled: boolean;
      secrets: Record<string, boolean>;
    };
    assert.equal(provider.enabled, false);
    assert.deepEqual(provider.secrets, { token: true });
    assert.ok(!added.stdout.includes('stdin-secret-value'));
    providerId = provider.id;
    const shown = await ctl(['providers', 'show', providerId]);
    assert.match(shown.stdout, /token = \(secret, set\)/);
    assert.ok(!shown.stdout.includes('stdin-secret-value'));
  });

  it('refuses a secret on the command line and says how to give it', async () => {
    const refused = await ctl(['providers', 'set', providerId, '--set', 'token=oops']);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^token is secret: use --secret token and type it at the prompt or pipe it on stdin\.\n$/,
    );
  });

  it('adds, enables and lists a route', async () => {
    const added = await ctl([
      'routes',
      'add',
      '--provider',
      providerId,
      '--min-priority',
      'high',
      '--title-only',
      '--json',
    ]);
    assert.equal(added.code, 0, added.stderr);
    const route = JSON.parse(added.stdout) as { id: string; enabled: boolean; includeMessage: boolean };
    assert.deepEqual([route.enabled, route.includeMessage], [false, false]);
    assert.equal((await ctl(['routes', 'enable', route.id])).code, 0);
    const listed = await ctl(['routes', 'list']);
    assert.match(
      listed.stdout,
      new RegExp(
        `^${route.id} route to hook -> ${providerId} enabled \\(priority>=high, title only\\)$`,
        'm',
      ),
    );
  });

  it('prints outbox counts and the broker error for an unknown item', async () => {
    const counts = await ctl(['outbox', 'counts', '--json']);
    assert.deepEqual(JSON.parse(counts.stdout), {
      waiting: 0,
      pending: 0,
      in_flight: 0,
      delivered: 0,
      dead: 0,
      cancelled: 0,
    });
    const missing = await ctl(['outbox', 'retry', '999']);
    assert.equal(missing.code, 3);
    assert.equal(missing.stderr.trim(), 'Error 404 Not Found: outbox item not found');
  });
});
