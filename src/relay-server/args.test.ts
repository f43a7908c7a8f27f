import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRelayArgs, RELAY_USAGE } from './args.js';

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
        tls: undefined,
        trustProxy: true,
        deliveryRate: 600,
        requestTimeoutSeconds: 30,
        drainSeconds: 0,
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

  it('runs on 127.0.0.1:8787 with 600 deliveries a minute, 30 s requests and one process when told only --data', () => {
    assert.deepEqual(parseRelayArgs(['--data', 'd']), {
      kind: 'run',
      options: {
        data: 'd',
        port: 8787,
        host: '127.0.0.1',
        name: undefined,
        publicUrl: undefined,
        tls: undefined,
        trustProxy: false,
        deliveryRate: 600,
        requestTimeoutSeconds: 30,
        drainSeconds: 0,
        contact: undefined,
        allowLoopbackPush: false,
        processes: 1,
      },
    });
  });

  it('takes every option it lists in its usage, each with its value', () => {
    const parsed = parseRelayArgs([
      '--data=d',
      '--host',
      '0.0.0.0',
      '--port',
      '65535',
      '--name',
      '  Home relay ',
      '--tls-cert',
      'cert.pem',
      '--tls-key',
      'key.pem',
      '--delivery-rate',
      '1',
      '--request-timeout',
      '3600',
      '--processes',
      '64',
      '--public-url',
      'http://relay.lan:8080/',
      '--contact',
      'https://example.org/contact',
    ]);
    assert.deepEqual(parsed, {
      kind: 'run',
      options: {
        data: 'd',
        port: 65535,
        host: '0.0.0.0',
        name: 'Home relay',
        publicUrl: 'http://relay.lan:8080',
        tls: { certFile: 'cert.pem', keyFile: 'key.pem' },
        trustProxy: false,
        deliveryRate: 1,
        requestTimeoutSeconds: 3600,
        drainSeconds: 0,
        contact: 'https://example.org/contact',
        allowLoopbackPush: false,
        processes: 64,
      },
    });
    for (const flag of [
      '--data',
      '--database',
      '--port',
      '--host',
      '--name',
      '--public-url',
      '--tls-cert',
      '--tls-key',
      '--trust-proxy',
      '--delivery-rate',
      '--processes',
      '--request-timeout',
      '--contact',
      '--allow-loopback-push',
      'migrate',
      'export',
      'import',
    ])
      assert.ok(RELAY_USAGE.includes(flag), `the usage names ${flag}`);
    assert.match(RELAY_USAGE, /^notify-relay: the Notify relay server/);
  });

  it('with --database, stores nothing in a folder and keeps the URL as given', () => {
    assert.deepEqual(parseRelayArgs(['--database', 'postgresql://h/db', '--port', '1']), {
      kind: 'run',
      options: {
        data: '',
        port: 1,
        host: '127.0.0.1',
        name: undefined,
        publicUrl: undefined,
        tls: undefined,
        trustProxy: false,
        deliveryRate: 600,
        requestTimeoutSeconds: 30,
        drainSeconds: 0,
        contact: undefined,
        allowLoopbackPush: false,
        processes: 1,
        database: 'postgresql://h/db',
      },
    });
  });

  it('reads an empty NOTIFY_RELAY_DATABASE as unset', () => {
    const parsed = parseRelayArgs(['--data', 'd'], { NOTIFY_RELAY_DATABASE: '' });
    assert.ok(parsed.kind === 'run');
    assert.equal(parsed.options.database, undefined);
    assert.deepEqual(parseRelayArgs(['export', '--data', 'd'], { NOTIFY_RELAY_DATABASE: '' }), {
      kind: 'export',
      target: { data: 'd' },
    });
  });

  it('answers --help, -h and --version before reading anything else', () => {
    assert.deepEqual(parseRelayArgs(['--help']), { kind: 'help' });
    assert.deepEqual(parseRelayArgs(['--bogus', '-h']), { kind: 'help' });
    assert.deepEqual(parseRelayArgs(['migrate', '--help']), { kind: 'help' });
    assert.deepEqual(parseRelayArgs(['--version']), { kind: 'version' });
    assert.deepEqual(parseRelayArgs(['--port', 'x', '--version']), { kind: 'version' });
  });

  const outOfRange: [string[], string][] = [
    [['--port', '-1'], '--port must be an integer 0-65535.'],
    [['--port', '65536'], '--port must be an integer 0-65535.'],
    [['--port', '80.5'], '--port must be an integer 0-65535.'],
    [['--port', 'http'], '--port must be an integer 0-65535.'],
    [['--port='], '--port needs a value.'],
    [['--host'], '--host needs a value.'],
    [['--delivery-rate', '0'], '--delivery-rate must be a positive integer.'],
    [['--delivery-rate', '-5'], '--delivery-rate must be a positive integer.'],
    [['--delivery-rate', '1.5'], '--delivery-rate must be a positive integer.'],
    [['--request-timeout', '3601'], '--request-timeout must be an integer 1-3600 (seconds).'],
    [['--request-timeout', '2.5'], '--request-timeout must be an integer 1-3600 (seconds).'],
    [['--drain', '301'], '--drain must be an integer 0-300 (seconds).'],
    [['--drain', '-1'], '--drain must be an integer 0-300 (seconds).'],
    [['--drain', '2.5'], '--drain must be an integer 0-300 (seconds).'],
    [['--drain', ' 5'], '--drain must be an integer 0-300 (seconds).'],
    [['--drain='], '--drain needs a value.'],
    [['--processes', '0'], '--processes must be an integer 1-64.'],
    [['--processes', '65'], '--processes must be an integer 1-64.'],
    [['--processes', '1.5'], '--processes must be an integer 1-64.'],
    [['--name', '   '], '--name must be 1-100 characters.'],
    [['--name', 'x'.repeat(101)], '--name must be 1-100 characters.'],
    [['--name', '🛰'.repeat(101)], '--name must be 1-100 characters.'],
    [['--tls-key', 'k'], '--tls-cert and --tls-key go together.'],
    [['--public-url', 'relay.example.org'], '--public-url must be an absolute http or https URL.'],
    [['--public-url', 'mailto:ops@example.org'], '--public-url must be an absolute http or https URL.'],
    [['--contact', 'see https://example.org'], '--contact must be a mailto: address or an https: URL.'],
    [['--contact', 'mailto:ops@example.org please'], '--contact must be a mailto: address or an https: URL.'],
    [['--contact', 'https://'], '--contact must be a mailto: address or an https: URL.'],
    [
      ['--database', 'jdbc:postgresql://h/db'],
      '--database must be a postgres:// URL (NOTIFY_RELAY_DATABASE too).',
    ],
    [['--database', 'postgres://'], '--database must be a postgres:// URL (NOTIFY_RELAY_DATABASE too).'],
  ];
  for (const [argv, message] of outOfRange) {
    it(`refuses --data d ${argv.join(' ')}`, () =>
      assert.deepEqual(parseRelayArgs(['--data', 'd', ...argv]), { kind: 'error', message }));
  }

  it('takes the edges of each range', () => {
    const run = (argv: string[]) => {
      const parsed = parseRelayArgs(['--data', 'd', ...argv]);
      assert.ok(parsed.kind === 'run', `${argv.join(' ')}: ${JSON.stringify(parsed)}`);
      return parsed.options;
    };
    assert.equal(run(['--request-timeout', '1']).requestTimeoutSeconds, 1);
    assert.equal(run(['--processes', '1']).processes, 1);
    assert.equal(run(['--drain', '0']).drainSeconds, 0);
    assert.equal(run(['--drain', '300']).drainSeconds, 300);
    assert.equal(run(['--name', 'x'.repeat(100)]).name, 'x'.repeat(100));
    assert.equal(run(['--name', '🛰'.repeat(100)]).name, '🛰'.repeat(100), 'an emoji is one character');
    assert.equal(run(['--name', 'R']).name, 'R');
  });

  it('reads migrate, export and import with --database, a value after = or the next argument', () => {
    assert.deepEqual(parseRelayArgs(['migrate', '--database', 'postgres://h/db']), {
      kind: 'migrate',
      target: { database: 'postgres://h/db' },
      check: false,
    });
    assert.deepEqual(parseRelayArgs(['migrate', '--data', 'd']), {
      kind: 'migrate',
      target: { data: 'd' },
      check: false,
    });
    assert.deepEqual(parseRelayArgs(['export', '--database=postgres://h/db', '--data', 'd']), {
      kind: 'export',
      target: { database: 'postgres://h/db' },
    });
    assert.deepEqual(parseRelayArgs(['import', '--data', 'd', '--database', 'postgres://h/db']), {
      kind: 'import',
      target: { database: 'postgres://h/db' },
    });
    const refusals: [string[], string][] = [
      [['export', '--data'], '--data needs a value.'],
      [['import', '--data='], '--data needs a value.'],
      [['migrate', '--database'], '--database needs a value.'],
      [
        ['migrate', '--database', 'mysql://h/db'],
        '--database must be a postgres:// URL (NOTIFY_RELAY_DATABASE too).',
      ],
      [['migrate', '--port', '1'], 'Unknown option for migrate: --port'],
      [['import', '--database=x', '--check'], 'Unknown option for import: --check'],
    ];
    for (const [argv, message] of refusals)
      assert.deepEqual(parseRelayArgs(argv), { kind: 'error', message }, argv.join(' '));
  });
});
