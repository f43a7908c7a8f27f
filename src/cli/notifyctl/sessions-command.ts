import { browserName } from '../../domain/browser-name.js';
import { CliError } from '../notify/failure.js';
import { groupCommand, printResult, runGroup, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

interface Session {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  current: boolean;
}

/** The browser as a person names it ("Firefox on macOS"); --json keeps the User-Agent as sent. */
const describe = (s: Session) =>
  `${s.id} ${browserName(s.userAgent)}: signed in ${s.createdAt}, ` +
  `last used ${s.lastSeenAt}, ends ${s.expiresAt}`;

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'list',
    synopsis: '',
    summary: 'signed-in web page sessions, newest first',
    run: async (client, parsed) => {
      if (parsed.positionals.length > 0) throw new CliError('Usage: notifyctl sessions list [--json]');
      const { sessions } = await client.request<{ sessions: Session[] }>('GET', '/v1/web/sessions');
      return printResult(parsed, { sessions }, () =>
        sessions.length ? sessions.map(describe) : ['(no sessions)'],
      );
    },
  },
  {
    name: 'revoke',
    synopsis: '<id> | --all',
    summary: 'sign one session out, or every one',
    flags: { '--all': { kind: 'switch', name: 'all' } },
    run: async (client, parsed) => {
      const all = parsed.options.has('all');
      if (parsed.positionals.length !== (all ? 0 : 1))
        throw new CliError('Usage: notifyctl sessions revoke <id> | --all [--json]');
      if (all) {
        const result = await client.request<{ revoked: number }>('DELETE', '/v1/web/sessions');
        return printResult(parsed, result, () => [`Revoked ${result.revoked} session(s).`]);
      }
      const id = parsed.positionals[0]!;
      await client.request('DELETE', `/v1/web/sessions/${encodeURIComponent(id)}`);
      return printResult(parsed, { revoked: 1 }, () => [`Session ${id} revoked.`]);
    },
  },
];

const SUMMARY = 'the web page sessions signed in with notifyctl open: list, revoke';

const NOTES = ['A new token (authToken in config.json) signs every session out.'];

export const sessionsCommand: NotifyctlCommand = groupCommand({
  name: 'sessions',
  summary: SUMMARY,
  description: `${SUMMARY}.`,
  subcommands: SUBCOMMANDS,
  notes: NOTES,
  // Without a subcommand, the list: what a person asking about sessions wants first.
  run: (argv) =>
    runGroup(
      'sessions',
      `${SUMMARY}.`,
      SUBCOMMANDS,
      argv.some((word) => ['list', 'revoke', 'help'].includes(word)) ? argv : ['list', ...argv],
      NOTES,
    ),
});
