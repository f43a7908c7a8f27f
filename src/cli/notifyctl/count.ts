import { MAX_LIST_LIMIT } from '../../domain/list-query.js';
import { printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { runBrokerCommand } from './broker-command.js';

/**
 * `notifyctl count [--json]`: one status-bar line, how many notifications need attention and of which
 * types, most frequent first. The total is the broker's own count; the types come from the newest
 * active notifications (all of them up to the list limit of 500).
 */
export const countCommand: NotifyctlCommand = {
  name: 'count',
  summary: 'one status-bar line: how many notifications need attention, by type',
  run: (argv) =>
    runBrokerCommand(
      'count',
      argv,
      { '--json': { kind: 'switch', name: 'json' } },
      async ({ parsed, client }) => {
        const [health, active] = await Promise.all([
          client.health(),
          client.list({ unresolved: true, limit: MAX_LIST_LIMIT }),
        ]);
        const byType = new Map<string, number>();
        for (const notification of active)
          byType.set(notification.type, (byType.get(notification.type) ?? 0) + 1);
        const ranked = [...byType].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
        if (parsed.options.has('json')) {
          printLine(JSON.stringify({ active: health.activeCount, byType: Object.fromEntries(ranked) }));
        } else {
          printLine(summaryLine(health.activeCount, ranked));
        }
        return 0;
      },
    ),
};

/** e.g. `3 need attention: 2 input_required, 1 error`, or `nothing needs attention`. */
export function summaryLine(total: number, ranked: [string, number][]): string {
  if (total === 0) return 'nothing needs attention';
  const types = ranked.map(([type, count]) => `${count} ${type}`).join(', ');
  const verb = total === 1 ? 'needs' : 'need';
  return `${total} ${verb} attention${types && `: ${types}`}`;
}
