/** notify-relay's command line, free of I/O. */

import { characterCount } from '../domain/text.js';

export const RELAY_USAGE = `notify-relay: the Notify relay server (docs/relay.md), in the foreground.

Usage: notify-relay --data FOLDER [options]
       notify-relay --database postgres://... [options]
       notify-relay migrate [--check] (--data FOLDER | --database URL)
       notify-relay export (--data FOLDER | --database URL) > relay.jsonl
       notify-relay import (--data FOLDER | --database URL) < relay.jsonl

  --data FOLDER          where relay.db lives (created, owner-only)            (required without --database)
  --database URL         PostgreSQL instead of relay.db (postgres://user@host/db?sslmode=verify-full);
                         any number of relay processes may share it. Also NOTIFY_RELAY_DATABASE (keep the
                         password there, in PGPASSWORD or ~/.pgpass: a command line is visible to all)
  --port N               port to listen on (0 = any free port)                 default 8787
  --host ADDRESS         address to listen on                                  default 127.0.0.1
  --name NAME            the relay's display name (1-100 characters)           default notify-relay on <host name>
  --public-url URL       the origin people and senders use (behind a proxy)    default from each request
  --tls-cert FILE        serve HTTPS with this certificate (PEM) ...
  --tls-key FILE         ... and this private key (PEM)
  --trust-proxy          honour X-Forwarded-For/-Proto/-Host (only behind your own reverse proxy)
  --delivery-rate N      deliveries per minute per installation                default 600
  --processes N          relay processes sharing the database behind one balancer: each process
                         enforces 1/N of every rate limit (docs/relay.md "Many people")   default 1
  --request-timeout N    seconds to send a request's headers and body          default 30
  --drain N              on SIGTERM, seconds /readyz answers 503 while the relay still serves, so a
                         balancer's health check takes it out first (0-300; a second signal skips it)
                                                                               default 0
  --contact URI          how push services reach the operator (mailto: or https:), sent with every phone push
                                                                               default --public-url when https
  --allow-loopback-push  accept phone push endpoints on this machine (http or https on a loopback
                         address): for tests and local trials only, never on a real relay

Prints its URL once listening; on the first start also a one-time link to set up the operator account.
Stops cleanly on SIGTERM or Ctrl+C (after --drain): requests finish, live streams close with a hint
to reconnect.

migrate applies the schema migrations the database lacks (the relay also does at start); --check
applies none and exits 1 when some are missing. export writes every table as JSON lines; import loads
them into an empty database.`;

export interface RelayOptions {
  data: string;
  port: number;
  host: string;
  name: string | undefined;
  publicUrl: string | undefined;
  /** The certificate and key files to serve HTTPS with: both or neither. */
  tls: { certFile: string; keyFile: string } | undefined;
  trustProxy: boolean;
  deliveryRate: number;
  requestTimeoutSeconds: number;
  /** Seconds between SIGTERM and the stop, /readyz answering 503 meanwhile. */
  drainSeconds: number;
  contact: string | undefined;
  allowLoopbackPush: boolean;
  /** How many processes share the rate limits (each enforces its share). */
  processes: number;
  /** PostgreSQL's URL; absent: SQLite in `data`. */
  database?: string;
}

/** Which database a maintenance command works on. */
export type Target = { data: string } | { database: string };

export type Parsed =
  | { kind: 'run'; options: RelayOptions }
  | { kind: 'migrate'; target: Target; check: boolean }
  | { kind: 'export'; target: Target }
  | { kind: 'import'; target: Target }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

const VALUED = [
  '--data',
  '--port',
  '--host',
  '--name',
  '--public-url',
  '--tls-cert',
  '--tls-key',
  '--delivery-rate',
  '--request-timeout',
  '--drain',
  '--contact',
  '--database',
  '--processes',
];

const COMMANDS = ['migrate', 'export', 'import'] as const;

function databaseUrl(value: string | undefined): string | undefined | { error: string } {
  if (value === undefined || value === '') return undefined;
  return /^postgres(ql)?:\/\/./.test(value)
    ? value
    : { error: '--database must be a postgres:// URL (NOTIFY_RELAY_DATABASE too).' };
}

/** `migrate`, `export` and `import`: only --data or --database (and --check for migrate). */
function parseCommand(
  command: (typeof COMMANDS)[number],
  argv: string[],
  env: Record<string, string | undefined>,
): Parsed {
  let check = false;
  let data: string | undefined;
  let database = env['NOTIFY_RELAY_DATABASE'];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (flag === '--check' && command === 'migrate') {
      check = true;
      continue;
    }
    if (flag !== '--data' && flag !== '--database')
      return { kind: 'error', message: `Unknown option for ${command}: ${arg}` };
    const value = inline ?? argv[++index];
    if (value === undefined || value === '') return { kind: 'error', message: `${flag} needs a value.` };
    if (flag === '--data') data = value;
    else database = value;
  }
  const url = databaseUrl(database);
  if (typeof url === 'object') return { kind: 'error', message: url.error };
  const target = url !== undefined ? { database: url } : data !== undefined ? { data } : undefined;
  if (!target) return { kind: 'error', message: `${command} needs --data FOLDER or --database URL.` };
  if (command === 'migrate') return { kind: 'migrate', target, check };
  return command === 'export' ? { kind: 'export', target } : { kind: 'import', target };
}

export function parseRelayArgs(argv: string[], env: Record<string, string | undefined> = {}): Parsed {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--version')) return { kind: 'version' };
  const command = COMMANDS.find((name) => name === argv[0]);
  if (command) return parseCommand(command, argv.slice(1), env);
  const values = new Map<string, string>();
  let trustProxy = false;
  let allowLoopbackPush = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (flag === '--trust-proxy') {
      trustProxy = true;
      continue;
    }
    if (flag === '--allow-loopback-push') {
      allowLoopbackPush = true;
      continue;
    }
    if (!VALUED.includes(flag)) return { kind: 'error', message: `Unknown option: ${arg}` };
    const value = inline ?? argv[++index];
    if (value === undefined || value === '') return { kind: 'error', message: `${flag} needs a value.` };
    values.set(flag, value);
  }
  const database = databaseUrl(values.get('--database') ?? env['NOTIFY_RELAY_DATABASE']);
  if (typeof database === 'object') return { kind: 'error', message: database.error };
  const data = values.get('--data') ?? (database === undefined ? undefined : '');
  if (data === undefined)
    return { kind: 'error', message: '--data FOLDER is required: the folder that holds relay.db.' };
  const port = Number(values.get('--port') ?? '8787');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { kind: 'error', message: '--port must be an integer 0-65535.' };
  const deliveryRate = Number(values.get('--delivery-rate') ?? '600');
  if (!Number.isInteger(deliveryRate) || deliveryRate < 1)
    return { kind: 'error', message: '--delivery-rate must be a positive integer.' };
  const requestTimeoutSeconds = Number(values.get('--request-timeout') ?? '30');
  if (!Number.isInteger(requestTimeoutSeconds) || requestTimeoutSeconds < 1 || requestTimeoutSeconds > 3600)
    return { kind: 'error', message: '--request-timeout must be an integer 1-3600 (seconds).' };
  const drain = values.get('--drain') ?? '0';
  if (!/^\d{1,3}$/.test(drain) || Number(drain) > 300)
    return { kind: 'error', message: '--drain must be an integer 0-300 (seconds).' };
  const drainSeconds = Number(drain);
  const processes = Number(values.get('--processes') ?? '1');
  if (!Number.isInteger(processes) || processes < 1 || processes > 64)
    return { kind: 'error', message: '--processes must be an integer 1-64.' };
  const name = values.get('--name');
  if (name !== undefined && (name.trim() === '' || characterCount(name) > 100))
    return { kind: 'error', message: '--name must be 1-100 characters.' };
  const tlsCert = values.get('--tls-cert');
  const tlsKey = values.get('--tls-key');
  if ((tlsCert === undefined) !== (tlsKey === undefined))
    return { kind: 'error', message: '--tls-cert and --tls-key go together.' };
  const publicUrl = values.get('--public-url');
  if (publicUrl !== undefined) {
    let origin: string;
    try {
      origin = new URL(publicUrl).origin;
    } catch {
      return { kind: 'error', message: '--public-url must be an absolute http or https URL.' };
    }
    if (!/^https?:\/\//.test(origin))
      return { kind: 'error', message: '--public-url must be an absolute http or https URL.' };
    values.set('--public-url', origin);
  }
  const contact = values.get('--contact');
  if (contact !== undefined && !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/.test(contact))
    return { kind: 'error', message: '--contact must be a mailto: address or an https: URL.' };
  return {
    kind: 'run',
    options: {
      data,
      port,
      host: values.get('--host') ?? '127.0.0.1',
      name: name?.trim(),
      publicUrl: values.get('--public-url'),
      // The check above made sure a key comes with a certificate.
      tls: tlsCert === undefined ? undefined : { certFile: tlsCert, keyFile: tlsKey! },
      trustProxy,
      deliveryRate,
      requestTimeoutSeconds,
      drainSeconds,
      contact,
      allowLoopbackPush,
      processes,
      ...(database !== undefined && { database }),
    },
  };
}
