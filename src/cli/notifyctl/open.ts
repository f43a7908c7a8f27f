import { LauncherError, openSignInLink } from '../../presentation/sign-in-launcher.js';
import { CONNECTION_FLAGS, parseArgs } from '../notify/args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../notify/connection.js';
import { CliError } from '../notify/failure.js';
import { withHints } from '../notify/hints.js';
import { printError, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { reportNotifyctlFailure } from './failure.js';

const HELP = `Usage: notifyctl open [--print] [--port <port>] [--token <token>]

Opens the Notify web page in your browser through a one-time sign-in link (valid 60 seconds, used
once): with $BROWSER, else xdg-open (open on macOS). The token never reaches the browser, and the
link never appears on a command line: the browser is given a private file that forwards to it
($XDG_RUNTIME_DIR/notify/open-*.html), removed once the link is used or expired.
When no browser can be started, or with --print, the link is printed instead: open it within 60 s.`;

const FLAGS = {
  ...CONNECTION_FLAGS,
  '--print': { kind: 'switch', name: 'print' },
  '--help': { kind: 'switch', name: 'help' },
  '-h': { kind: 'switch', name: 'help' },
} as const;

export const openCommand: NotifyctlCommand = {
  name: 'open',
  summary: 'open the web page in your browser (--print: show its one-time sign-in link)',
  help: () => HELP,
  async run(args) {
    try {
      const parsed = parseArgs(
        args,
        FLAGS,
        (flag) => `notifyctl open: unknown option '${flag}'. Run 'notifyctl open --help'.`,
      );
      if (parsed.options.has('help')) {
        printLine(HELP);
        return 0;
      }
      if (parsed.positionals.length > 0) {
        throw new CliError(
          `notifyctl open: unexpected argument '${parsed.positionals[0]}'. Run 'notifyctl open --help'.`,
        );
      }
      const connection = resolveConnection(parsed);
      warnWhenTokenless(connection);
      return await withHints(connection, async () => {
        const { url } = await createClient(connection).request<{ url: string }>(
          'POST',
          '/v1/web/login-codes',
        );
        if (parsed.options.has('print')) {
          printLine(url);
          return 0;
        }
        let opener: string | undefined;
        try {
          opener = await openSignInLink(url);
        } catch (error) {
          if (!(error instanceof LauncherError)) throw error;
          printError(
            `The link was not handed to a browser: ${error.message}. Open this link within 60 seconds; it works once:`,
          );
          printLine(url);
          return 0;
        }
        if (opener !== undefined) {
          printLine(`Opened the Notify web page with ${opener}.`);
          return 0;
        }
        printError(
          'No browser could be started ($BROWSER is not set or failed, and so did xdg-open or open). ' +
            'Open this link within 60 seconds; it works once:',
        );
        printLine(url);
        return 0;
      });
    } catch (error) {
      return reportNotifyctlFailure(error);
    }
  },
};
