import type { NotifyctlCommand } from './command.js';
import { callApi, CONNECTION_VALUE_FLAGS, print, requireId, runCtl } from './api-call.js';
import { lastValue, parseCtlArgs, UsageError, type CtlArgs } from './ctl-args.js';

const HELP = `Usage: notifyctl outbox <action> [options]

  list [--state pending|in_flight|delivered|dead] [--limit N]
  counts                        items by state
  retry <id>                    give a dead item a fresh set of attempts
  purge                         delete delivered items

Common options: --json, --port PORT, --token TOKEN.`;

interface Item {
  id: number;
  notificationId: string;
  providerId: string;
  operation: string;
  state: string;
  attempts: number;
  lastReason: string | null;
  nextAttemptAt: string | null;
}

const describe = (i: Item) =>
  `${i.id} ${i.state} ${i.operation} ${i.notificationId} -> ${i.providerId} attempts=${i.attempts}` +
  `${i.lastReason ? ` last=${i.lastReason}` : ''}${i.nextAttemptAt ? ` next=${i.nextAttemptAt}` : ''}`;

export const outboxCommand: NotifyctlCommand = {
  name: 'outbox',
  summary: 'outbound delivery items: list, counts, retry a dead one, purge delivered',
  run: (argv) => {
    let args: CtlArgs;
    try {
      args = parseCtlArgs(argv, [...CONNECTION_VALUE_FLAGS, '--state', '--limit'], ['--json']);
    } catch (error) {
      console.error(`notifyctl: ${(error as Error).message}\n\n${HELP}`);
      return Promise.resolve(1);
    }
    return runCtl(async () => {
      const action = args.positionals[0];
      switch (action) {
        case 'list': {
          const query = new URLSearchParams();
          const state = lastValue(args, '--state');
          const limit = lastValue(args, '--limit');
          if (state !== undefined) query.set('state', state);
          if (limit !== undefined) query.set('limit', limit);
          const items = (await callApi(args, 'GET', `/v1/outbox?${query.toString()}`)) as Item[];
          return print(args, items, () => (items.length ? items.map(describe) : ['(no items)']));
        }
        case 'counts': {
          const counts = (await callApi(args, 'GET', '/v1/outbox/counts')) as Record<string, number>;
          return print(args, counts, () => Object.entries(counts).map(([state, n]) => `${state}: ${n}`));
        }
        case 'retry': {
          const item = (await callApi(
            args,
            'POST',
            `/v1/outbox/${encodeURIComponent(requireId(args, 'item'))}/retry`,
          )) as Item;
          return print(args, item, () => [describe(item)]);
        }
        case 'purge': {
          const result = (await callApi(args, 'POST', '/v1/outbox/purge-delivered')) as { purged: number };
          return print(args, result, () => [`Purged ${result.purged} delivered item(s).`]);
        }
        default:
          throw new UsageError(action === undefined ? 'which action?' : `unknown action '${action}'`);
      }
    }, HELP);
  },
};
