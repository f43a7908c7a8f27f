import { parseLifetime } from '../../domain/agent-token.js';
import { CliError } from '../notify/failure.js';
import { printResult, runGroup, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

interface TokenView {
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

const describe = (t: TokenView) =>
  `${t.name}  created ${t.createdAt}, last used ${t.lastUsedAt ?? 'never'}, ` +
  `${t.expiresAt === null ? 'never expires' : `expires ${t.expiresAt}`}`;

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'create',
    synopsis: '<name> [--expires 30d]',
    summary: 'make an agent token and print it once (its last line is the token alone)',
    flags: { '--expires': { kind: 'value', name: 'expires' } },
    run: async (client, parsed) => {
      if (parsed.positionals.length !== 1)
        throw new CliError('Usage: notifyctl tokens create <name> [--expires 30d] [--json]');
      const expires = parsed.options.get('expires');
      const body: Record<string, unknown> = { name: parsed.positionals[0] };
      if (typeof expires === 'string') {
        const seconds = parseLifetime(expires);
        if (seconds === undefined)
          throw new CliError(`--expires must be a number of days, hours or minutes such as 30d, 12h or 90m`);
        body['expiresInSeconds'] = seconds;
      }
      const created = await client.request<TokenView & { token: string }>('POST', '/v1/tokens', body);
      return printResult(parsed, created, () => [
        `Agent token "${created.name}" made; it raises and follows only its own notifications.`,
        created.expiresAt === null ? 'It works until revoked.' : `It expires ${created.expiresAt}.`,
        'It is shown only this once: put it in the agent machine\'s config.json as "authToken".',
        created.token,
      ]);
    },
  },
  {
    name: 'list',
    synopsis: '',
    summary: 'agent tokens: name, created, last used, expiry (never the token)',
    run: async (client, parsed) => {
      if (parsed.positionals.length > 0) throw new CliError('Usage: notifyctl tokens list [--json]');
      const { tokens } = await client.request<{ tokens: TokenView[] }>('GET', '/v1/tokens');
      return printResult(parsed, { tokens }, () => (tokens.length ? tokens.map(describe) : ['(no tokens)']));
    },
  },
  {
    name: 'revoke',
    synopsis: '<name>',
    summary: 'revoke an agent token: refused from its next request on',
    run: async (client, parsed) => {
      if (parsed.positionals.length !== 1)
        throw new CliError('Usage: notifyctl tokens revoke <name> [--json]');
      const name = parsed.positionals[0]!;
      await client.request('DELETE', `/v1/tokens/${encodeURIComponent(name)}`);
      return printResult(parsed, { revoked: name }, () => [`Agent token "${name}" revoked.`]);
    },
  },
];

const SUMMARY = 'tokens for agents elsewhere (SSH hosts, containers): create, list, revoke';

export const tokensCommand: NotifyctlCommand = {
  name: 'tokens',
  summary: SUMMARY,
  run: (argv) =>
    runGroup('tokens', `${SUMMARY}.`, SUBCOMMANDS, argv.length === 0 ? ['list'] : argv, [
      'An agent token may raise notifications and ARC events and read, resolve, dismiss, snooze and wait',
      'for the ones it raised; everything else is refused (403). The owner token in config.json does all.',
    ]),
};
