import type { NotifyClient } from '../../client/notify-client.js';
import type { SettingDeclaration } from '../../delivery/provider.js';
import type { ListenerHealth } from '../../domain/channel-answer.js';
import { listeningText } from '../../domain/listening-text.js';
import { neutralize } from '../../domain/neutralize.js';
import { optionText, optionValues, type FlagTable, type ParsedArgs } from '../notify/args.js';
import { CliError, EXIT_FAILURE } from '../notify/failure.js';
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
import { readSecrets } from './secret-input.js';

/** A provider's test waits for the receiver, which may take the provider's own timeout (15 s for email). */
const TEST_TIMEOUT_MS = 20_000;

const NAME_FLAG: FlagTable = { '--name': { kind: 'value', name: 'name' } };
const SETTING_FLAGS: FlagTable = {
  ...NAME_FLAG,
  '--set': { kind: 'repeated', name: 'set' },
  '--secret': { kind: 'repeated', name: 'secret' },
};

const NOTES = [
  'Options of add and set: --name NAME; --set NAME=VALUE and --secret NAME, each as often as needed;',
  'set also takes --clear-secret NAME. A secret setting is read from a hidden prompt, or one line per',
  '--secret from stdin, never from the command line. New providers start disabled.',
];

interface Kind {
  id: string;
  title: string;
  settings: SettingDeclaration[];
}

interface Provider {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, boolean>;
  health: string;
  lastResult: { outcome: string; reason?: string; at: string } | null;
  /** Of an enabled provider that carries answers back. */
  listening?: { state: ListenerHealth['state']; reason?: string; since: string };
}

const describe = (p: Provider) => {
  const last = p.lastResult
    ? `${p.lastResult.outcome}${p.lastResult.reason ? ` ${p.lastResult.reason}` : ''} at ${p.lastResult.at}`
    : 'never used';
  // A name or setting may have come from a relay or anyone with the token: shown inert on a terminal.
  const answers = p.listening ? `; answers: ${listeningText(p.listening)}` : '';
  return neutralize(
    `${p.id} ${p.name} [${p.kind}] ${p.enabled ? 'enabled' : 'disabled'} health=${p.health} (${last})${answers}`,
  );
};

function detail(p: Provider): string[] {
  return [
    describe(p),
    ...(p.listening
      ? [neutralize(`  answers: ${listeningText(p.listening)} since ${p.listening.since}`)]
      : []),
    ...Object.entries(p.settings).map(([name, value]) => neutralize(`  ${name} = ${String(value)}`)),
    ...Object.entries(p.secrets).map(
      ([name, set]) => `  ${name} = ${set ? '(secret, set)' : '(secret, not set)'}`,
    ),
  ];
}

const path = (id: string, action = '') => `/v1/providers/${encodeURIComponent(id)}${action}`;

/** The settings of add and set; a secret's value only ever from the prompt or stdin, never argv. */
async function settingsFrom(parsed: ParsedArgs, kind: Kind): Promise<Record<string, unknown>> {
  const settings: Record<string, unknown> = {};
  for (const pair of optionValues(parsed, 'set')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliError(`--set takes NAME=VALUE; one was given without a name or '='.`);
    const name = pair.slice(0, at);
    const declaration = kind.settings.find((setting) => setting.name === name);
    if (!declaration)
      throw new CliError(`${kind.id} has no setting '${name}' (see 'notifyctl providers kinds').`);
    if (declaration.secret)
      throw new CliError(
        `${name} is secret: use --secret ${name} and type it at the prompt or pipe it on stdin.`,
      );
    const text = pair.slice(at + 1);
    settings[name] =
      declaration.type === 'integer' ? Number(text) : declaration.type === 'boolean' ? text === 'true' : text;
  }
  const secretNames = optionValues(parsed, 'secret');
  for (const name of secretNames) {
    if (!kind.settings.some((setting) => setting.name === name && setting.secret)) {
      throw new CliError(`${kind.id} has no secret setting '${name}' (see 'notifyctl providers kinds').`);
    }
  }
  for (const [name, value] of await readSecrets(secretNames)) settings[name] = value;
  for (const name of optionValues(parsed, 'clear-secret')) settings[name] = null;
  return settings;
}

async function kindNamed(client: NotifyClient, id: string): Promise<Kind> {
  const kinds = await client.request<Kind[]>('GET', '/v1/provider-kinds');
  const kind = kinds.find((candidate) => candidate.id === id);
  if (!kind)
    throw new CliError(
      `unknown provider kind '${id}' (known: ${kinds.map((k) => k.id).join(', ') || 'none'}).`,
    );
  return kind;
}

/** enable and disable: one call that answers the provider. */
const switchSubcommand = (name: 'enable' | 'disable', summary: string) =>
  oneItemSubcommand(
    'providers',
    name,
    summary,
    (client, id) => client.request<Provider>('POST', path(id, `/${name}`)),
    (provider) => [describe(provider)],
  );

const SUBCOMMANDS: Subcommand[] = [
  listSubcommand(
    'providers',
    'providers with health and last result',
    '/v1/providers',
    describe,
    '(no providers)',
  ),
  {
    name: 'kinds',
    synopsis: '',
    summary: 'provider kinds and their settings',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl providers kinds [--json]');
      const kinds = await client.request<Kind[]>('GET', '/v1/provider-kinds');
      return printResult(parsed, kinds, () =>
        kinds.flatMap((kind) => [
          `${kind.id}: ${kind.title}`,
          ...kind.settings.map(
            (s) =>
              `  ${s.name} (${s.type}${s.required ? ', required' : ''}${s.secret ? ', secret' : ''}): ${s.help}`,
          ),
        ]),
      );
    },
  },
  oneItemSubcommand(
    'providers',
    'show',
    'a provider and its settings (of a secret, whether it is set)',
    (client, id) => client.request<Provider>('GET', path(id)),
    detail,
  ),
  {
    name: 'add',
    synopsis: '<kind> [options]',
    summary: 'create a provider, disabled',
    flags: SETTING_FLAGS,
    run: async (client, parsed) => {
      const [kindId] = positionals(parsed, 1, 'notifyctl providers add <kind> [options]');
      const kind = await kindNamed(client, kindId!);
      const name = optionText(parsed, 'name');
      const body = {
        kind: kind.id,
        ...(name !== undefined && { name }),
        settings: await settingsFrom(parsed, kind),
      };
      const provider = await client.request<Provider>('POST', '/v1/providers', body);
      return printResult(parsed, provider, () => [
        ...detail(provider),
        `Created disabled; run 'notifyctl providers enable ${provider.id}' when it is ready.`,
      ]);
    },
  },
  {
    name: 'set',
    synopsis: '<id> [options]',
    summary: "change a provider's name, settings and secrets",
    flags: { ...SETTING_FLAGS, '--clear-secret': { kind: 'repeated', name: 'clear-secret' } },
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, 'notifyctl providers set <id> [options]');
      const current = await client.request<Provider>('GET', path(id!));
      const settings = await settingsFrom(parsed, await kindNamed(client, current.kind));
      const name = optionText(parsed, 'name');
      const provider = await client.request<Provider>('PATCH', path(id!), {
        ...(name !== undefined && { name }),
        settings,
      });
      return printResult(parsed, provider, () => detail(provider));
    },
  },
  switchSubcommand('enable', 'deliver through the provider'),
  switchSubcommand('disable', 'stop delivering through the provider'),
  removeSubcommand(
    'providers',
    'delete the provider and its routes',
    path,
    (id) => `Removed provider ${id} and its routes.`,
  ),
  {
    name: 'test',
    synopsis: '<id>',
    summary: 'send the test notification and say what happened',
    timeoutMs: TEST_TIMEOUT_MS,
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, 'notifyctl providers test <id>');
      const outcome = await client.request<{ outcome: string; summary: string }>('POST', path(id!, '/test'));
      printResult(parsed, outcome, () => [outcome.summary]);
      return outcome.outcome === 'delivered' ? 0 : EXIT_FAILURE;
    },
  },
];

export const providersCommand: NotifyctlCommand = groupCommand({
  name: 'providers',
  summary: 'outbound delivery providers: list, add, set, enable, disable, remove, test',
  description: 'outbound delivery providers (where notifications are forwarded).',
  subcommands: SUBCOMMANDS,
  notes: NOTES,
});
