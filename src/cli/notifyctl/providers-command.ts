import type { SettingDeclaration } from '../../delivery/provider.js';
import type { NotifyctlCommand } from './command.js';
import { callApi, CONNECTION_VALUE_FLAGS, print, requireId, runCtl } from './api-call.js';
import { lastValue, parseCtlArgs, UsageError, type CtlArgs } from './ctl-args.js';
import { readSecrets } from './secret-input.js';

const HELP = `Usage: notifyctl providers <action> [options]

  list                          providers with health and last result
  kinds                         provider kinds and their settings
  show <id>
  add <kind> [--name NAME] [--set NAME=VALUE ...] [--secret NAME ...]
  set <id> [--name NAME] [--set NAME=VALUE ...] [--secret NAME ...] [--clear-secret NAME ...]
  enable <id> | disable <id> | remove <id>
  test <id>                     send the test notification and say what happened

New providers start disabled. Secret settings are read from a hidden prompt, or one line each from
stdin, never from the command line. Common options: --json, --port PORT, --token TOKEN.`;

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
}

const describe = (p: Provider) => {
  const last = p.lastResult
    ? `${p.lastResult.outcome}${p.lastResult.reason ? ` ${p.lastResult.reason}` : ''} at ${p.lastResult.at}`
    : 'never used';
  return `${p.id} ${p.name} [${p.kind}] ${p.enabled ? 'enabled' : 'disabled'} health=${p.health} (${last})`;
};

function detail(p: Provider): string[] {
  return [
    describe(p),
    ...Object.entries(p.settings).map(([name, value]) => `  ${name} = ${String(value)}`),
    ...Object.entries(p.secrets).map(
      ([name, set]) => `  ${name} = ${set ? '(secret, set)' : '(secret, not set)'}`,
    ),
  ];
}

async function settingsFrom(args: CtlArgs, kind: Kind): Promise<Record<string, unknown>> {
  const settings: Record<string, unknown> = {};
  for (const pair of args.values.get('--set') ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--set takes NAME=VALUE, not '${pair}'`);
    const name = pair.slice(0, at);
    const declaration = kind.settings.find((setting) => setting.name === name);
    if (!declaration)
      throw new UsageError(`${kind.id} has no setting '${name}' (see 'notifyctl providers kinds')`);
    if (declaration.secret)
      throw new UsageError(
        `${name} is secret: use --secret ${name} and type it at the prompt or pipe it on stdin`,
      );
    const text = pair.slice(at + 1);
    settings[name] =
      declaration.type === 'integer' ? Number(text) : declaration.type === 'boolean' ? text === 'true' : text;
  }
  const secretNames = args.values.get('--secret') ?? [];
  for (const name of secretNames) {
    if (!kind.settings.some((setting) => setting.name === name && setting.secret)) {
      throw new UsageError(`${kind.id} has no secret setting '${name}'`);
    }
  }
  for (const [name, value] of await readSecrets(secretNames)) settings[name] = value;
  for (const name of args.values.get('--clear-secret') ?? []) settings[name] = null;
  return settings;
}

async function kindNamed(args: CtlArgs, id: string): Promise<Kind> {
  const kinds = (await callApi(args, 'GET', '/v1/provider-kinds')) as Kind[];
  const kind = kinds.find((candidate) => candidate.id === id);
  if (!kind)
    throw new UsageError(
      `unknown provider kind '${id}' (known: ${kinds.map((k) => k.id).join(', ') || 'none'})`,
    );
  return kind;
}

export const providersCommand: NotifyctlCommand = {
  name: 'providers',
  summary: 'outbound delivery providers: list, add, set, enable, disable, remove, test',
  run: (argv) => {
    let args: CtlArgs;
    try {
      args = parseCtlArgs(
        argv,
        [...CONNECTION_VALUE_FLAGS, '--name', '--set', '--secret', '--clear-secret'],
        ['--json'],
      );
    } catch (error) {
      console.error(`notifyctl: ${(error as Error).message}\n\n${HELP}`);
      return Promise.resolve(1);
    }
    return runCtl(async () => {
      const action = args.positionals[0];
      const name = lastValue(args, '--name');
      switch (action) {
        case 'list': {
          const providers = (await callApi(args, 'GET', '/v1/providers')) as Provider[];
          return print(args, providers, () =>
            providers.length ? providers.map(describe) : ['(no providers)'],
          );
        }
        case 'kinds': {
          const kinds = (await callApi(args, 'GET', '/v1/provider-kinds')) as Kind[];
          return print(args, kinds, () =>
            kinds.flatMap((kind) => [
              `${kind.id}: ${kind.title}`,
              ...kind.settings.map(
                (s) =>
                  `  ${s.name} (${s.type}${s.required ? ', required' : ''}${s.secret ? ', secret' : ''}): ${s.help}`,
              ),
            ]),
          );
        }
        case 'show': {
          const provider = (await callApi(
            args,
            'GET',
            `/v1/providers/${encodeURIComponent(requireId(args, 'provider'))}`,
          )) as Provider;
          return print(args, provider, () => detail(provider));
        }
        case 'add': {
          const kindId = args.positionals[1];
          if (!kindId) throw new UsageError('add needs a provider kind (see notifyctl providers kinds)');
          const kind = await kindNamed(args, kindId);
          const body = {
            kind: kind.id,
            ...(name !== undefined && { name }),
            settings: await settingsFrom(args, kind),
          };
          const provider = (await callApi(args, 'POST', '/v1/providers', body)) as Provider;
          return print(args, provider, () => [
            ...detail(provider),
            `Created disabled; run 'notifyctl providers enable ${provider.id}' when it is ready.`,
          ]);
        }
        case 'set': {
          const id = requireId(args, 'provider');
          const current = (await callApi(args, 'GET', `/v1/providers/${encodeURIComponent(id)}`)) as Provider;
          const settings = await settingsFrom(args, await kindNamed(args, current.kind));
          const provider = (await callApi(args, 'PATCH', `/v1/providers/${encodeURIComponent(id)}`, {
            ...(name !== undefined && { name }),
            settings,
          })) as Provider;
          return print(args, provider, () => detail(provider));
        }
        case 'enable':
        case 'disable': {
          const provider = (await callApi(
            args,
            'POST',
            `/v1/providers/${encodeURIComponent(requireId(args, 'provider'))}/${action}`,
          )) as Provider;
          return print(args, provider, () => [describe(provider)]);
        }
        case 'remove': {
          const id = requireId(args, 'provider');
          await callApi(args, 'DELETE', `/v1/providers/${encodeURIComponent(id)}`);
          return print(args, { removed: id }, () => [`Removed provider ${id} and its routes.`]);
        }
        case 'test': {
          const outcome = (await callApi(
            args,
            'POST',
            `/v1/providers/${encodeURIComponent(requireId(args, 'provider'))}/test`,
          )) as { outcome: string; summary: string };
          print(args, outcome, () => [outcome.summary]);
          if (outcome.outcome !== 'delivered')
            throw Object.assign(new Error('test not delivered'), { quiet: true });
          return;
        }
        default:
          throw new UsageError(action === undefined ? 'which action?' : `unknown action '${action}'`);
      }
    }, HELP);
  },
};
