import type { NotifyctlCommand } from './command.js';
import { callApi, CONNECTION_VALUE_FLAGS, print, requireId, runCtl } from './api-call.js';
import { lastValue, parseCtlArgs, UsageError, type CtlArgs } from './ctl-args.js';

const HELP = `Usage: notifyctl routes <action> [options]

  list
  show <id>
  add --provider ID [--name NAME] [route options]
  set <id> [--provider ID] [--name NAME] [route options]
  enable <id> | disable <id> | remove <id>

Route options: --min-priority low|normal|high|critical, --type TYPE, --project NAME, --agent NAME
(an empty value clears a filter), --title-only (only the title leaves the machine), --with-message.
New routes start disabled. Common options: --json, --port PORT, --token TOKEN.`;

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

function fieldsFrom(args: CtlArgs): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const map: [string, string][] = [
    ['--provider', 'providerId'],
    ['--name', 'name'],
    ['--min-priority', 'minimumPriority'],
    ['--type', 'typeId'],
    ['--project', 'project'],
    ['--agent', 'agent'],
  ];
  for (const [flag, field] of map) {
    const value = lastValue(args, flag);
    if (value !== undefined)
      fields[field] = field === 'providerId' || field === 'name' ? value : value === '' ? null : value;
  }
  if (args.switches.has('--title-only')) fields['includeMessage'] = false;
  if (args.switches.has('--with-message')) fields['includeMessage'] = true;
  return fields;
}

export const routesCommand: NotifyctlCommand = {
  name: 'routes',
  summary: 'delivery routes (which notifications go to which provider)',
  run: (argv) => {
    let args: CtlArgs;
    try {
      args = parseCtlArgs(
        argv,
        [
          ...CONNECTION_VALUE_FLAGS,
          '--provider',
          '--name',
          '--min-priority',
          '--type',
          '--project',
          '--agent',
        ],
        ['--json', '--title-only', '--with-message'],
      );
    } catch (error) {
      console.error(`notifyctl: ${(error as Error).message}\n\n${HELP}`);
      return Promise.resolve(1);
    }
    return runCtl(async () => {
      const action = args.positionals[0];
      switch (action) {
        case 'list': {
          const routes = (await callApi(args, 'GET', '/v1/routes')) as Route[];
          return print(args, routes, () => (routes.length ? routes.map(describe) : ['(no routes)']));
        }
        case 'show': {
          const route = (await callApi(
            args,
            'GET',
            `/v1/routes/${encodeURIComponent(requireId(args, 'route'))}`,
          )) as Route;
          return print(args, route, () => [describe(route)]);
        }
        case 'add': {
          if (lastValue(args, '--provider') === undefined) throw new UsageError('add needs --provider ID');
          const route = (await callApi(args, 'POST', '/v1/routes', fieldsFrom(args))) as Route;
          return print(args, route, () => [
            describe(route),
            `Created disabled; run 'notifyctl routes enable ${route.id}' when it is ready.`,
          ]);
        }
        case 'set': {
          const route = (await callApi(
            args,
            'PATCH',
            `/v1/routes/${encodeURIComponent(requireId(args, 'route'))}`,
            fieldsFrom(args),
          )) as Route;
          return print(args, route, () => [describe(route)]);
        }
        case 'enable':
        case 'disable': {
          const route = (await callApi(
            args,
            'POST',
            `/v1/routes/${encodeURIComponent(requireId(args, 'route'))}/${action}`,
          )) as Route;
          return print(args, route, () => [describe(route)]);
        }
        case 'remove': {
          const id = requireId(args, 'route');
          await callApi(args, 'DELETE', `/v1/routes/${encodeURIComponent(id)}`);
          return print(args, { removed: id }, () => [`Removed route ${id}.`]);
        }
        default:
          throw new UsageError(action === undefined ? 'which action?' : `unknown action '${action}'`);
      }
    }, HELP);
  },
};
