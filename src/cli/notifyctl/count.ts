import { printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { runBrokerCommand } from './broker-command.js';

/**
 * `notifyctl count [--json]`: one status-bar line, how many notifications need attention and of which
 * types, most frequent first: only those whose type needs a person (issue 20), counted by the broker.
 */
export const countCommand: NotifyctlCommand = {
  name: 'count',
  summary: 'one status-bar line: how many notifications need attention, by type',
  help: () =>
    [
      'Usage: notifyctl count [--json]',
      '',
      'One status-bar line: how many notifications need attention (their type needs a person), by type,',
      'most frequent first. --json prints {"waiting": N, "byType": {...}}.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) =>
    runBrokerCommand(
      'count',
      argv,
      { '--json': { kind: 'switch', name: 'json' } },
      async ({ parsed, client }) => {
        const { waiting, byType } = await client.waiting();
        if (parsed.options.has('json')) printLine(JSON.stringify({ waiting, byType }));
        else printLine(summaryLine(waiting, Object.entries(byType)));
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
