import { HttpError } from '../../client/errors.js';
import { CONNECTION_FLAGS, parseArgs } from '../notify/args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../notify/connection.js';
import { EXIT_FAILURE } from '../notify/failure.js';
import { printError } from '../notify/output.js';
import { reportFailure } from '../notify/report.js';
import type { NotifyctlCommand } from './command.js';

const HELP = `Usage: notifyctl test-toast [--json] [--port <port>] [--token <token>]

Asks the running Notify to show a sample toast on its desktop, to check that toasts reach you.
Nothing is stored. Exit code 0 when the notification server took the toast, 1 otherwise.`;

const FLAGS = {
  ...CONNECTION_FLAGS,
  '--json': { kind: 'switch', name: 'json' },
  '--help': { kind: 'switch', name: 'help' },
  '-h': { kind: 'switch', name: 'help' },
} as const;

export const testToast: NotifyctlCommand = {
  name: 'test-toast',
  summary: 'show a sample toast through the running broker',
  help: () => HELP,
  async run(args) {
    try {
      const parsed = parseArgs(
        args,
        FLAGS,
        (flag) => `notifyctl test-toast: unknown option '${flag}'. Run 'notifyctl test-toast --help'.`,
      );
      if (parsed.options.has('help')) {
        console.log(HELP);
        return 0;
      }
      if (parsed.positionals.length > 0) {
        printError(
          `notifyctl test-toast: unexpected argument '${parsed.positionals[0]}'. Run 'notifyctl test-toast --help'.`,
        );
        return EXIT_FAILURE;
      }
      const connection = resolveConnection(parsed);
      warnWhenTokenless(connection);
      const result = await createClient(connection).testToast();
      if (parsed.options.has('json')) console.log(JSON.stringify(result));
      else console.log(`Test toast shown by ${result.server} (toast ${result.toastId}).`);
      return 0;
    } catch (error) {
      const code = reportFailure(error, 'test-toast');
      if (error instanceof HttpError && error.status === 503) {
        printError(
          'Hint: Notify shows toasts through a notification server on the session D-Bus (dunst, mako, GNOME, KDE). ' +
            'Start one, and start Notify from your desktop session so that it sees DBUS_SESSION_BUS_ADDRESS.',
        );
      }
      return code;
    }
  },
};
