import { createInterface } from 'node:readline';
import { HttpError } from '../../client/errors.js';
import type { NotifyClient } from '../../client/notify-client.js';
import type { ListNotificationsQuery, NotificationDto } from '../../client/api-types.js';
import { MAX_LIST_LIMIT } from '../../domain/list-query.js';
import { optionText, type FlagTable, type ParsedArgs } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { printError, printLine } from '../notify/output.js';
import { readTypeOption } from '../notify/type-option.js';
import { runBrokerCommand } from './broker-command.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';

/** More than this many changes at once are confirmed first: a filter left out changes everything. */
export const CONFIRM_ABOVE = 10;

const FLAGS: FlagTable = {
  '--all': { kind: 'switch', name: 'all' },
  '--agent': { kind: 'value', name: 'agent' },
  '--project': { kind: 'value', name: 'project' },
  '--type': { kind: 'value', name: 'type' },
  '--yes': { kind: 'switch', name: 'yes' },
};

type Change = { verb: 'resolve'; status: 'resolved' } | { verb: 'dismiss'; status: 'dismissed' };

/**
 * `notifyctl resolve|dismiss --all [--agent A] [--project P] [--type T] [--yes]`: every active
 * notification that matches, one PATCH each (the API has no bulk route; PATCH is not rate limited,
 * POST .../dismiss is). `notify resolve` stays the spec's one-id command.
 */
function bulkCommand(change: Change): NotifyctlCommand {
  const { verb } = change;
  const usage = `Usage: notifyctl ${verb} --all [--agent <name>] [--project <name>] [--type <type>] [--yes]`;
  return {
    name: verb,
    summary: `${verb} all active notifications, or an agent's, project's or type's; says how many`,
    help: () =>
      [
        usage,
        '',
        `Every active notification, or those of an agent, project or type, is ${change.status}, with a`,
        `count; more than ${CONFIRM_ABOVE} asks first (--yes does not). One by id: 'notify ${verb} <id>'.`,
        CONNECTION_NOTE,
      ].join('\n'),
    run: (argv) =>
      runBrokerCommand(verb, argv, FLAGS, async ({ parsed, client }) => {
        if (!parsed.options.has('all') || parsed.positionals.length > 0)
          throw new CliError(`${usage}\nOne notification by id: 'notify ${verb} <id>'.`);
        const query = filterOf(parsed);
        const matching = await client.list(query);
        const what = describeFilter(query);
        if (matching.length === 0) {
          printLine(`No active notification${what}; nothing to ${verb}.`);
          return 0;
        }
        if (matching.length > CONFIRM_ABOVE && !parsed.options.has('yes')) {
          const count = matching.length < MAX_LIST_LIMIT ? `${matching.length}` : `${MAX_LIST_LIMIT} or more`;
          const question = `${capitalized(verb)} ${count} active notifications${what}?`;
          if (!process.stdin.isTTY || !process.stderr.isTTY)
            throw new CliError(
              `${question} Not without --yes: there is no terminal to ask on, and more than ${CONFIRM_ABOVE} would change. Nothing changed.`,
            );
          if (!(await confirm(`${question} [y/N] `))) {
            printError('Nothing changed.');
            return 1;
          }
        }
        const changed = await changeAll(client, query, matching, change);
        printLine(
          `${capitalized(pastTense(change))} ${changed} notification${changed === 1 ? '' : 's'}${what}.`,
        );
        return 0;
      }),
  };
}

function filterOf(parsed: ParsedArgs): ListNotificationsQuery {
  const agent = optionText(parsed, 'agent');
  const project = optionText(parsed, 'project');
  const type = optionText(parsed, 'type');
  return {
    status: 'active',
    limit: MAX_LIST_LIMIT,
    ...(agent !== undefined && { agent }),
    ...(project !== undefined && { project }),
    ...(type !== undefined && { type: readTypeOption(type) }),
  };
}

/**
 * One PATCH per notification; while pages come back full (the list stops at 500 and has no offset),
 * the same query again shows the next ones, since the changed ones are no longer active. One that
 * changed meanwhile elsewhere (400: resolved already, 404: deleted) is skipped and not counted.
 */
async function changeAll(
  client: NotifyClient,
  query: ListNotificationsQuery,
  first: NotificationDto[],
  change: Change,
): Promise<number> {
  const seen = new Set<string>();
  let changed = 0;
  for (let page = first; ; page = await client.list(query)) {
    const fresh = page.filter((notification) => !seen.has(notification.id));
    for (const { id } of fresh) {
      seen.add(id);
      try {
        await client.setStatus(id, change.status);
        changed++;
      } catch (error) {
        if (!(error instanceof HttpError && (error.status === 400 || error.status === 404))) throw error;
      }
    }
    if (page.length < MAX_LIST_LIMIT || fresh.length === 0) return changed;
  }
}

function describeFilter(query: ListNotificationsQuery): string {
  const parts = [
    query.agent !== undefined && `agent ${query.agent}`,
    query.project !== undefined && `project ${query.project}`,
    query.type !== undefined && `type ${query.type}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function confirm(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    rl.question(question, (answer) => {
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const pastTense = (change: Change) => change.status;

export const resolveCommand = bulkCommand({ verb: 'resolve', status: 'resolved' });
export const dismissCommand = bulkCommand({ verb: 'dismiss', status: 'dismissed' });
