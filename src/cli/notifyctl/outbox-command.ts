import { optionText } from '../notify/args.js';
import { positionals, printResult, groupCommand, type Subcommand } from './api-command.js';
import type { NotifyClient } from '../../client/notify-client.js';
import type { NotifyctlCommand } from './command.js';
import { localTime } from './delay-text.js';

interface Item {
  id: number;
  notificationId: string;
  providerId: string;
  operation: string;
  state: string;
  attempts: number;
  lastReason: string | null;
  nextAttemptAt: string | null;
  waitingUntil: string | null;
  seen?: { at: string; device: string | null } | null;
}

/** The provider's name reads; its id after it is what `providers show` and `routes add` take. */
type Namer = (providerId: string) => string;

async function providerNamer(client: NotifyClient): Promise<Namer> {
  const providers = await client.request<{ id: string; name: string }[]>('GET', '/v1/providers');
  const names = new Map(providers.map((provider) => [provider.id, provider.name]));
  return (id) => (names.has(id) ? `${names.get(id)} (${id})` : id);
}

const describe = (i: Item, name: Namer) => {
  const head = `${i.id} ${i.state} ${i.operation} ${i.notificationId} -> ${name(i.providerId)}`;
  if (i.waitingUntil !== null)
    return `${head} (waiting until ${localTime(i.waitingUntil)}, cancelled if handled)`;
  if (i.state === 'cancelled')
    return `${head} (cancelled: handled before its route's delay ended; nothing was sent)`;
  const seen = i.seen
    ? ` (seen on the phone at ${localTime(i.seen.at)}${i.seen.device === null ? '' : `, ${i.seen.device}`})`
    : '';
  return (
    `${head} attempts=${i.attempts}` +
    `${i.lastReason ? ` last=${i.lastReason}` : ''}${i.nextAttemptAt ? ` next=${localTime(i.nextAttemptAt)}` : ''}${seen}`
  );
};

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'list',
    synopsis: '[--state STATE] [--limit N]',
    summary: 'items, all or those in one state (waiting, pending, in_flight, delivered, dead, cancelled)',
    flags: {
      '--state': { kind: 'value', name: 'state' },
      '--limit': { kind: 'value', name: 'limit' },
    },
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl outbox list [--state STATE] [--limit N] [--json]');
      const query = new URLSearchParams();
      for (const name of ['state', 'limit']) {
        const value = optionText(parsed, name);
        if (value !== undefined) query.set(name, value);
      }
      const items = await client.request<Item[]>('GET', `/v1/outbox?${query.toString()}`);
      const name = parsed.options.has('json') ? (id: string) => id : await providerNamer(client);
      return printResult(parsed, items, () =>
        items.length ? items.map((item) => describe(item, name)) : ['(no items)'],
      );
    },
  },
  {
    name: 'counts',
    synopsis: '',
    summary: 'items by state',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl outbox counts [--json]');
      const counts = await client.request<Record<string, number>>('GET', '/v1/outbox/counts');
      return printResult(parsed, counts, () => Object.entries(counts).map(([state, n]) => `${state}: ${n}`));
    },
  },
  {
    name: 'retry',
    synopsis: '<id>',
    summary: 'give a dead item a fresh set of attempts',
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, 'notifyctl outbox retry <id>');
      const item = await client.request<Item>('POST', `/v1/outbox/${encodeURIComponent(id!)}/retry`);
      const name = parsed.options.has('json')
        ? (providerId: string) => providerId
        : await providerNamer(client);
      return printResult(parsed, item, () => [describe(item, name)]);
    },
  },
  {
    name: 'purge',
    synopsis: '',
    summary: 'delete delivered items',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl outbox purge [--json]');
      const result = await client.request<{ purged: number }>('POST', '/v1/outbox/purge-delivered');
      return printResult(parsed, result, () => [`Purged ${result.purged} delivered item(s).`]);
    },
  },
];

export const outboxCommand: NotifyctlCommand = groupCommand({
  name: 'outbox',
  summary: 'outbound delivery items: list, counts, retry a dead one, purge delivered',
  description: 'outbound delivery items: list, counts, retry a dead one, purge delivered.',
  subcommands: SUBCOMMANDS,
});
