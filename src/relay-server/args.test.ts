import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRelayArgs } from './args.js';

describe('parseRelayArgs', () => {
  it('takes --data with defaults for the rest, and both --flag value and --flag=value', () => {
    const parsed = parseRelayArgs([
      '--data',
      '/srv/relay',
      '--port=0',
      '--trust-proxy',
      '--public-url',
      'https://r.example.org/x',
    ]);
    assert.deepEqual(parsed, {
      kind: 'run',
      options: {
        data: '/srv/relay',
        port: 0,
        host: '127.0.0.1',
        name: undefined,
        publicUrl: 'https://r.example.org',
        tlsCert: undefined,
        tlsKey: undefined,
        trustProxy: true,
        deliveryRate: 600,
        requestTimeoutSeconds: 30,
        contact: undefined,
        allowLoopbackPush: false,
        processes: 1,
      },
    });
  });

  const refused: [string[], string][] = [
    [[], '--data FOLDER is required: the folder that holds relay.db.'],
    [['--data', 'd', '--port', '70000'], '--port must be an integer 0-65535.'],
    [['--data', 'd', '--tls-cert', 'c'], '--tls-cert and --tls-key go together.'],
    [['--data', 'd', '--public-url', 'ftp://x'], '--public-url must be an absolute http or https URL.'],
    [['--data', 'd', '--bogus'], 'Unknown option: --bogus'],
    [['--data'], '--data needs a value.'],
    [['--data', 'd', '--request-timeout', '0'], '--request-timeout must be an integer 1-3600 (seconds).'],
  ];
  for (const [argv, message] of refused) {
    it(`refuses ${argv.join(' ') || 'no arguments'}`, () =>
      assert.deepEqual(parseRelayArgs(argv), { kind: 'error', message }));
  }

  it('takes --contact as mailto: or https: only, and --allow-loopback-push as a flag', () => {
    const parsed = parseRelayArgs([
      '--data',
      'd',
      '--contact',
      'mailto:ops@example.org',
      '--allow-loopback-push',
    ]);
    assert.ok(parsed.kind === 'run');
    assert.deepEqual(
      [parsed.options.contact, parsed.options.allowLoopbackPush],
      ['mailto:ops@example.org', true],
    );
    for (const contact of ['http://example.org', 'ops@example.org', 'mailto:'])
      assert.deepEqual(parseRelayArgs(['--data', 'd', '--contact', contact]), {
        kind: 'error',
        message: '--contact must be a mailto: address or an https: URL.',
      });
  });

  it('takes PostgreSQL from --database or NOTIFY_RELAY_DATABASE, and then needs no --data', () => {
    const url = 'postgres://relay@db.example/relay?sslmode=verify-full';
    for (const parsed of [
      parseRelayArgs(['--database', url]),
      parseRelayArgs([], { NOTIFY_RELAY_DATABASE: url }),
    ]) {
      assert.ok(parsed.kind === 'run');
      assert.equal(parsed.options.database, url);
    }
    assert.deepEqual(parseRelayArgs(['--database', 'mysql://x/y']), {
      kind: 'error',
      message: '--database must be a postgres:// URL (NOTIFY_RELAY_DATABASE too).',
    });
  });

  it('parses migrate [--check], export and import with --data or --database', () => {
    assert.deepEqual(parseRelayArgs(['migrate', '--check', '--data', 'd']), {
      kind: 'migrate',
      target: { data: 'd' },
      check: true,
    });
    assert.deepEqual(parseRelayArgs(['export', '--data=d']), { kind: 'export', target: { data: 'd' } });
    assert.deepEqual(parseRelayArgs(['import'], { NOTIFY_RELAY_DATABASE: 'postgresql://h/db' }), {
      kind: 'import',
      target: { database: 'postgresql://h/db' },
    });
    assert.deepEqual(parseRelayArgs(['import']), {
      kind: 'error',
      message: 'import needs --data FOLDER or --database URL.',
    });
    assert.deepEqual(parseRelayArgs(['export', '--check', '--data', 'd']), {
      kind: 'error',
      message: 'Unknown option for export: --check',
    });
  });
});
