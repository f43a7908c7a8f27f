import type { FlagTable, ParsedArgs } from '../notify/args.js';
import { optionText } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { NEW_ROUTE } from '../../domain/delivery/route-defaults.js';
import {
  listSubcommand,
  oneItemSubcommand,
  positionals,
  printResult,
  removeSubcommand,
  groupCommand,
  type Subcommand,
} from './api-command.js';
import type { NotifyctlCommand } from './command.js';
import { delayText, parseDelay } from './delay-text.js';

const NOTES = [
  'Options of add and set: --provider ID, --name NAME, --min-priority low|normal|high|critical,',
  '--type TYPE, --project NAME, --agent NAME (an empty value clears a filter), --title-only (only the',
  'title leaves the machine), --with-message, --delay DURATION (90s, 5m, 1h; at most 24h): a send waits',
  'that long and is cancelled, unsent, if the notification is handled meanwhile (0: at once),',
  '--quiet-hours send|wait (whether it sends during quiet hours).',
  `A new route starts disabled, at --min-priority ${NEW_ROUTE.minimumPriority}, ${
    NEW_ROUTE.includeMessage ? '--with-message' : '--title-only'
  }, --delay ${NEW_ROUTE.delaySeconds}, --quiet-hours ${NEW_ROUTE.sendDuringQuietHours ? 'send' : 'wait'}`,
  '(as a route made in the web page).',
];

/** Each route option: its flag, and the field of the API body it sets. */
const FIELDS: [flag: string, field: string][] = [
  ['--provider', 'providerId'],
  ['--name', 'name'],
  ['--min-priority', 'minimumPriority'],
  ['--type', 'typeId'],
  ['--project', 'project'],
  ['--agent', 'agent'],
];

const ROUTE_FLAGS: FlagTable = {
  ...Object.fromEntries(FIELDS.map(([flag, field]) => [flag, { kind: 'value', name: field }])),
  '--title-only': { kind: 'switch', name: 'title-only' },
  '--with-message': { kind: 'switch', name: 'with-message' },
  '--delay': { kind: 'value', name: 'delay' },
  '--quiet-hours': { kind: 'value', name: 'quiet-hours' },
};

interface Route {
  id: string;
  name: string;
  providerId: string;
  enabled: boolean;
  minimumPriority: string;
  typeId: string | null;
  project: string | null;
  agent: string | null;
  includeMessage: boolean;
  delaySeconds: number;
  sendDuringQuietHours?: boolean;
}

const describe = (r: Route) => {
  const filters = [`priority>=${r.minimumPriority}`];
  if (r.typeId) filters.push(`type=${r.typeId}`);
  if (r.project) filters.push(`project=${r.project}`);
  if (r.agent) filters.push(`agent=${r.agent}`);
  if (!r.includeMessage) filters.push('title only');
  if (r.delaySeconds > 0) filters.push(`waits ${delayText(r.delaySeconds)}`);
  if (r.sendDuringQuietHours) filters.push('sends during quiet hours');
  return `${r.id} ${r.name} -> ${r.providerId} ${r.enabled ? 'enabled' : 'disabled'} (${filters.join(', ')})`;
};

const path = (id: string, action = '') => `/v1/routes/${encodeURIComponent(id)}${action}`;

/** The route options given, as API fields; an empty filter is null (cleared). */
function fieldsFrom(parsed: ParsedArgs): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [, field] of FIELDS) {
    const value = optionText(parsed, field);
    if (value !== undefined)
      fields[field] = field === 'providerId' || field === 'name' ? value : value === '' ? null : value;
  }
  if (parsed.options.has('title-only')) fields['includeMessage'] = false;
  if (parsed.options.has('with-message')) fields['includeMessage'] = true;
  const delay = optionText(parsed, 'delay');
  if (delay !== undefined) fields['delaySeconds'] = parseDelay(delay);
  const quiet = optionText(parsed, 'quiet-hours');
  if (quiet !== undefined) {
    if (quiet !== 'send' && quiet !== 'wait') throw new CliError('--quiet-hours must be send or wait.');
    fields['sendDuringQuietHours'] = quiet === 'send';
  }
  return fields;
}

/** show, enable and disable: one call that answers the route. */
const routeSubcommand = (name: 'show' | 'enable' | 'disable', summary: string) =>
  oneItemSubcommand(
    'routes',
    name,
    summary,
    (client, id) =>
      name === 'show'
        ? client.request<Route>('GET', path(id))
        : client.request<Route>('POST', path(id, `/${name}`)),
    (route) => [describe(route)],
  );

const SUBCOMMANDS: Subcommand[] = [
  listSubcommand('routes', 'every route with its filters', '/v1/routes', describe, '(no routes)'),
  routeSubcommand('show', 'a route and its filters'),
  {
    name: 'add',
    synopsis: '--provider ID [options]',
    summary: 'create a route to a provider, disabled',
    flags: ROUTE_FLAGS,
    run: async (client, parsed) => {
      const usage = 'notifyctl routes add --provider ID [options]';
      positionals(parsed, 0, usage);
      if (optionText(parsed, 'providerId') === undefined) throw new CliError(`Usage: ${usage}`);
      const route = await client.request<Route>('POST', '/v1/routes', fieldsFrom(parsed));
      return printResult(parsed, route, () => [
        describe(route),
        `Created disabled; run 'notifyctl routes enable ${route.id}' when it is ready.`,
      ]);
    },
  },
  {
    name: 'set',
    synopsis: '<id> [options]',
    summary: "change a route's provider, name or filters",
    flags: ROUTE_FLAGS,
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, 'notifyctl routes set <id> [options]');
      const route = await client.request<Route>('PATCH', path(id!), fieldsFrom(parsed));
      return printResult(parsed, route, () => [describe(route)]);
    },
  },
  routeSubcommand('enable', 'forward the notifications the route matches'),
  routeSubcommand('disable', 'stop forwarding them'),
  removeSubcommand('routes', 'delete the route', path, (id) => `Removed route ${id}.`),
];

export const routesCommand: NotifyctlCommand = groupCommand({
  name: 'routes',
  summary: 'delivery routes (which notifications go to which provider)',
  description: 'delivery routes (which notifications go to which provider).',
  subcommands: SUBCOMMANDS,
  notes: NOTES,
});
