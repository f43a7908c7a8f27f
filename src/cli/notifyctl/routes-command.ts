import type { FlagTable, ParsedArgs } from '../notify/args.js';
import { optionText } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { positionals, printResult, runGroup, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

const NOTES = [
  'Options of add and set: --provider ID, --name NAME, --min-priority low|normal|high|critical,',
  '--type TYPE, --project NAME, --agent NAME (an empty value clears a filter), --title-only (only the',
  'title leaves the machine), --with-message. New routes start disabled.',
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
}

const describe = (r: Route) => {
  const filters = [`priority>=${r.minimumPriority}`];
  if (r.typeId) filters.push(`type=${r.typeId}`);
  if (r.project) filters.push(`project=${r.project}`);
  if (r.agent) filters.push(`agent=${r.agent}`);
  if (!r.includeMessage) filters.push('title only');
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
  return fields;
}

/** show, enable and disable: the route's id, then one call that answers the route. */
function onOne(name: 'show' | 'enable' | 'disable', summary: string): Subcommand {
  return {
    name,
    synopsis: '<id>',
    summary,
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, `notifyctl routes ${name} <id>`);
      const route =
        name === 'show'
          ? await client.request<Route>('GET', path(id!))
          : await client.request<Route>('POST', path(id!, `/${name}`));
      return printResult(parsed, route, () => [describe(route)]);
    },
  };
}

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'list',
    synopsis: '',
    summary: 'every route with its filters',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl routes list [--json]');
      const routes = await client.request<Route[]>('GET', '/v1/routes');
      return printResult(parsed, routes, () => (routes.length ? routes.map(describe) : ['(no routes)']));
    },
  },
  onOne('show', 'a route and its filters'),
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
  onOne('enable', 'forward the notifications the route matches'),
  onOne('disable', 'stop forwarding them'),
  {
    name: 'remove',
    synopsis: '<id>',
    summary: 'delete the route',
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, 'notifyctl routes remove <id>');
      await client.request('DELETE', path(id!));
      return printResult(parsed, { removed: id }, () => [`Removed route ${id}.`]);
    },
  },
];

export const routesCommand: NotifyctlCommand = {
  name: 'routes',
  summary: 'delivery routes (which notifications go to which provider)',
  run: (argv) =>
    runGroup(
      'routes',
      'delivery routes (which notifications go to which provider).',
      SUBCOMMANDS,
      argv,
      NOTES,
    ),
};
