import type { TypeDefinitionBody, TypeEntry } from '../../client/api-types.js';
import { normalizeType } from '../../domain/notification-type.js';
import { normalizePriority } from '../../domain/priority.js';
import { TYPE_FIELDS } from '../../domain/type-definition-body.js';
import type { FlagTable, ParsedArgs } from '../notify/args.js';
import { optionText } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { printJson, printLine } from '../notify/output.js';
import { positionals, printResult, groupCommand, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

const SET_FLAGS: FlagTable = {
  '--priority': { kind: 'value', name: 'priority' },
  '--lifetime': { kind: 'value', name: 'lifetime' },
  '--icon': { kind: 'value', name: 'icon' },
  '--sound': { kind: 'value', name: 'sound' },
  '--needs-person': { kind: 'value', name: 'needsPerson' },
  '--resolve-after': { kind: 'value', name: 'resolveAfter' },
  '--remind-every': { kind: 'value', name: 'remindEvery' },
  '--remind-times': { kind: 'value', name: 'remindTimes' },
  '--enabled': { kind: 'switch', name: 'enabled' },
  '--disabled': { kind: 'switch', name: 'disabled' },
};

/** `deploy  custom  enabled  priority=high lifetime=0s icon=dialog-warning sound=knock` */
export function formatType(entry: TypeEntry): string {
  const details = [
    entry.defaultPriority !== undefined && `priority=${entry.defaultPriority}`,
    entry.lifetimeSeconds !== undefined && `lifetime=${entry.lifetimeSeconds}s`,
    entry.icon !== undefined && `icon=${entry.icon}`,
    entry.sound !== undefined && `sound=${entry.sound}`,
    entry.needsPerson !== undefined && `needs-person=${entry.needsPerson ? 'yes' : 'no'}`,
    entry.resolveAfterMinutes !== undefined && `resolve-after=${entry.resolveAfterMinutes}m`,
    entry.remindEveryMinutes !== undefined && `remind-every=${entry.remindEveryMinutes}m`,
    entry.remindTimes !== undefined && `remind-times=${entry.remindTimes}`,
  ].filter(Boolean);
  return [
    entry.id.padEnd(22),
    entry.builtin ? 'built-in' : 'custom  ',
    entry.enabled ? 'enabled ' : 'disabled',
    ...details,
  ]
    .join('  ')
    .trimEnd();
}

function typeId(word: string): string {
  const id = normalizeType(word);
  if (!id) {
    throw new CliError(
      'the type must be a valid identifier containing letters, numbers, underscores, or hyphens (maximum 64 characters).',
    );
  }
  return id;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/** The number flags of `types set`: option, the field it sets, what it takes, and the message if not. */
const NUMBER_FLAGS: [
  option: string,
  field: 'lifetimeSeconds' | 'resolveAfterMinutes' | 'remindEveryMinutes' | 'remindTimes',
  pattern: RegExp,
  message: string,
][] = [
  [
    'lifetime',
    'lifetimeSeconds',
    DECIMAL,
    '--lifetime must be a number of seconds, 0 for "until acted on" (or default).',
  ],
  [
    'resolveAfter',
    'resolveAfterMinutes',
    DECIMAL,
    '--resolve-after must be a number of minutes, 0 for "never" (or default).',
  ],
  [
    'remindEvery',
    'remindEveryMinutes',
    DECIMAL,
    '--remind-every must be a number of minutes, 0 for "never" (or default).',
  ],
  [
    'remindTimes',
    'remindTimes',
    WHOLE,
    '--remind-times must be a whole number of reminders, 0 for none (or default).',
  ],
];

/** The flags of `types set` over the type's current definition; `default` clears a field. */
export function applyTypeFlags(current: TypeDefinitionBody, parsed: ParsedArgs): TypeDefinitionBody {
  const next: TypeDefinitionBody = { ...current };
  const text = (name: string) => optionText(parsed, name);
  const clear = (value: string | undefined) => value?.trim().toLowerCase() === 'default';
  const priority = text('priority');
  if (priority !== undefined) {
    if (clear(priority)) delete next.defaultPriority;
    else {
      const normalized = normalizePriority(priority);
      if (!normalized) throw new CliError('--priority must be low, normal, high, or critical (or default).');
      next.defaultPriority = normalized;
    }
  }
  const needs = text('needsPerson');
  if (needs !== undefined) {
    const answer = needs.trim().toLowerCase();
    if (answer === 'default') delete next.needsPerson;
    else if (answer === 'yes' || answer === 'no') next.needsPerson = answer === 'yes';
    else throw new CliError('--needs-person must be yes or no (or default).');
  }
  for (const [option, field, pattern, message] of NUMBER_FLAGS) {
    const value = text(option);
    if (value === undefined) continue;
    if (clear(value)) delete next[field];
    else if (pattern.test(value.trim())) next[field] = Number(value);
    else throw new CliError(message);
  }
  for (const field of ['icon', 'sound'] as const) {
    const value = text(field);
    if (value === undefined) continue;
    if (clear(value)) delete next[field];
    else next[field] = value;
  }
  if (parsed.options.has('enabled') && parsed.options.has('disabled'))
    throw new CliError('--enabled and --disabled cannot be used together.');
  if (parsed.options.has('enabled')) next.enabled = true;
  if (parsed.options.has('disabled')) next.enabled = false;
  return next;
}

/** The fields of a definition the API takes back (TYPE_FIELDS): hand-written ones (say `color`) are left out. */
function definitionOf(entry: TypeEntry | undefined): TypeDefinitionBody {
  if (!entry) return {};
  return Object.fromEntries(
    TYPE_FIELDS.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]]),
  );
}

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'list',
    synopsis: '',
    summary: 'list the built-in and custom types with their settings',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl types list [--json]');
      const types = await client.listTypes();
      if (parsed.options.has('json')) printJson(types);
      else types.forEach((entry) => printLine(formatType(entry)));
      return 0;
    },
  },
  {
    name: 'set',
    synopsis:
      '<id> [--priority P] [--lifetime S] [--icon NAME] [--sound NAME] [--needs-person yes|no] [--resolve-after M] [--remind-every M] [--remind-times N] [--enabled|--disabled]',
    summary: 'create a type or change the given fields of one',
    flags: SET_FLAGS,
    run: async (client, parsed) => {
      const [word] = positionals(parsed, 1, 'notifyctl types set <id> [options]');
      const id = typeId(word!);
      const current = (await client.listTypes()).find((entry) => entry.id === id);
      const entry = await client.putType(id, applyTypeFlags(definitionOf(current), parsed));
      return printResult(parsed, entry, () => [formatType(entry)]);
    },
  },
  {
    name: 'remove',
    synopsis: '<id>',
    summary: "remove a type's definition from config.json",
    run: async (client, parsed) => {
      const [word] = positionals(parsed, 1, 'notifyctl types remove <id>');
      const entry = await client.removeType(typeId(word!));
      return printResult(parsed, entry, () => [`Removed type ${entry.id}.`]);
    },
  },
];

export const typesCommand: NotifyctlCommand = groupCommand({
  name: 'types',
  summary: 'list, define or remove notification types (priority, toast lifetime, icon, sound)',
  description: 'list, define or remove notification types.',
  subcommands: SUBCOMMANDS,
});
