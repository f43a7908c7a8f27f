import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { resolvePaths } from '../../config/paths.js';
import { HOOK_TOOLS } from '../../domain/hooks/decision.js';
import { parseArgs } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { printError, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { hooksCommand } from './hooks/hooks-command.js';
import { serviceCommand } from './service.js';

const USAGE = 'Usage: notifyctl uninstall [--all] [--yes]';

/** The folders that hold the person's data, each once (macOS and Windows keep them all in one). */
function dataFolders(): string[] {
  const paths = resolvePaths();
  return [...new Set([paths.configDir, paths.dataDir, dirname(paths.logDir)])].filter(
    (folder, _, all) => !all.some((other) => other !== folder && folder.startsWith(`${other}/`)),
  );
}

function ask(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    rl.on('close', () => resolve(false));
    rl.question(question, (answer) => {
      resolve(/^y(es)?$/i.test(answer.trim()));
      rl.close();
    });
  });
}

/**
 * `notifyctl uninstall [--all]`: what `npm uninstall -g` cannot do, run before it. Removes the agents'
 * hooks (user scope) and the user service; the data (config with the token, database, secrets, logs)
 * stays and the command says where, unless --all and a yes (or --yes) remove it too.
 */
export const uninstallCommand: NotifyctlCommand = {
  name: 'uninstall',
  summary: "remove the hooks and the service before 'npm uninstall -g'; --all: the data too",
  run: async (argv) => {
    try {
      const parsed = parseArgs(
        argv,
        { '--all': { kind: 'switch', name: 'all' }, '--yes': { kind: 'switch', name: 'yes' } },
        (flag) => `unknown option '${flag}' for uninstall. ${USAGE}`,
      );
      if (parsed.positionals.length > 0) throw new CliError(USAGE);
      let code = 0;
      for (const tool of HOOK_TOOLS) code = Math.max(code, await hooksCommand.run(['uninstall', tool]));
      if (process.platform === 'linux' || process.platform === 'darwin')
        code = Math.max(code, await serviceCommand.run(['uninstall']));
      const folders = dataFolders().filter((folder) => existsSync(folder));
      if (folders.length === 0) printLine('Notify keeps no data on this machine.');
      else if (!parsed.options.has('all')) {
        printLine(
          `Your data stays (config and token, database, secrets, logs):\n${folders.map((f) => `  ${f}`).join('\n')}`,
        );
        printLine("'notifyctl uninstall --all' removes it too.");
      } else if (parsed.options.has('yes') || (await ask(`Delete ${folders.join(', ')} for good? [y/N] `))) {
        for (const folder of folders) rmSync(folder, { recursive: true, force: true });
        printLine(`Removed ${folders.join(', ')}.`);
      } else printLine(`Your data stays:\n${folders.map((f) => `  ${f}`).join('\n')}`);
      printLine("Then remove the programs: 'npm uninstall -g agent-notify'.");
      return code;
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      printError(error.message);
      return error.exitCode;
    }
  },
};
