import { focusFinding } from './focus-finding.js';
import {
  checkBroker,
  checkConfig,
  checkDesktop,
  checkPresentation,
  checkService,
  checkSound,
  type Finding,
} from './doctor-checks.js';
import { systemdManager, launchdManager } from '../../service/service-manager.js';
import { CONNECTION_FLAGS, parseArgs } from '../notify/args.js';
import { resolveConnection } from '../notify/connection.js';
import { CliError } from '../notify/failure.js';
import { printError, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { hooksFinding } from './hooks/hooks-finding.js';
import { serviceTarget } from './service.js';

/** `notifyctl doctor`: one line per part of the set-up, with what to do; exit 1 when any part fails. */
export const doctorCommand: NotifyctlCommand = {
  name: 'doctor',
  summary: 'check config, broker, token, toasts, tray, sounds, hooks, service; says what to do',
  help: () =>
    [
      'Usage: notifyctl doctor',
      '',
      'Checks config, broker, token, toasts, tray, sounds, hooks and service, one line each with what to',
      'do (docs/service.md). Exit 1 when any part fails.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: async (argv) => {
    try {
      const parsed = parseArgs(
        argv,
        CONNECTION_FLAGS,
        (flag) => `unknown option '${flag}' for doctor. Run 'notifyctl --help'.`,
      );
      const connection = resolveConnection(parsed);
      const env = process.env;
      const service =
        process.platform === 'linux'
          ? systemdManager(serviceTarget(env), env)
          : process.platform === 'darwin'
            ? launchdManager(serviceTarget(env), env, process.getuid?.() ?? 501)
            : undefined;
      const context = {
        env,
        baseUrl: connection.baseUrl,
        ...(connection.token !== undefined && { token: connection.token }),
        ...(service !== undefined && { service }),
      };
      const broker = await checkBroker(context);
      const tokenAccepted = broker.some((finding) => finding.name === 'token' && finding.verdict === 'ok');
      const presentation = tokenAccepted ? await checkPresentation(context) : undefined;
      const findings: Finding[] = [
        await checkConfig(context),
        ...broker,
        ...(presentation ?? [await checkDesktop(context), await checkSound(context)]),
        hooksFinding(env, process.cwd()),
        focusFinding(env),
        await checkService(context),
      ];
      for (const finding of findings)
        printLine(`${finding.verdict.padEnd(4)}  ${finding.name.padEnd(7)}  ${finding.text}`);
      return findings.some((finding) => finding.verdict === 'fail') ? 1 : 0;
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      printError(error.message);
      return error.exitCode;
    }
  },
};
