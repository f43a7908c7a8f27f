import { fileURLToPath } from 'node:url';
import {
  launchdManager,
  readDefinition,
  removeDefinition,
  runProgram,
  systemdManager,
  writeDefinition,
  type ServiceManager,
} from '../../service/service-manager.js';
import { servicePathProblem, type ServiceTarget } from '../../service/service-definition.js';
import { parseArgs } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { printError, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { portInForce } from './port-in-force.js';

const USAGE = 'Usage: notifyctl service install|uninstall|restart|status [--dry-run]';

/**
 * This node and this checkout: the service runs exactly what installed it, on the port NOTIFY_PORT
 * moves the broker to (a login service does not see this shell's environment).
 */
export function serviceTarget(env: NodeJS.ProcessEnv = process.env): ServiceTarget {
  const port = portInForce(env);
  return {
    node: process.execPath,
    notifyd: fileURLToPath(new URL('../notifyd.js', import.meta.url)),
    docs: fileURLToPath(new URL('../../../../docs/service.md', import.meta.url)),
    ...(port !== undefined && { port }),
  };
}

function managerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ServiceManager {
  if (platform === 'linux') return systemdManager(serviceTarget(env), env);
  if (platform === 'darwin') return launchdManager(serviceTarget(env), env, process.getuid?.() ?? 501);
  throw new CliError(
    `notifyctl service supports Linux (systemd) and macOS (launchd), not ${platform}; start notifyd at login with your system's own tools.`,
  );
}

const shellLine = (command: string[]) =>
  command.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word}'`)).join(' ');

/** `notifyctl service install|uninstall|restart|status`: Notify as a user service that starts at login. */
export const serviceCommand: NotifyctlCommand = {
  name: 'service',
  summary: 'install, uninstall, restart or show Notify as a user service (systemd, launchd)',
  help: () =>
    [
      USAGE,
      '',
      'install writes and starts a user service that runs notifyd at login (a systemd user unit on Linux,',
      'a launchd agent on macOS) with this Node.js and this checkout; uninstall stops and removes it;',
      'restart restarts it (after an upgrade); status shows it. --dry-run prints what install, uninstall',
      'or restart would do. See docs/service.md.',
    ].join('\n'),
  subcommands: ['install', 'uninstall', 'restart', 'status'].map((name) => ({ name })),
  run: async (argv) => {
    try {
      const parsed = parseArgs(
        argv,
        { '--dry-run': { kind: 'switch', name: 'dryRun' } },
        (flag) => `unknown option '${flag}' for service. ${USAGE}`,
      );
      const [action, extra] = parsed.positionals;
      if (!['install', 'uninstall', 'restart', 'status'].includes(action ?? '') || extra !== undefined)
        throw new CliError(USAGE);
      const manager = managerFor(process.platform, process.env);
      const dryRun = parsed.options.has('dryRun');
      if (action === 'install') return await install(manager, dryRun);
      if (action === 'uninstall') return await uninstall(manager, dryRun);
      if (action === 'restart') return await restart(manager, dryRun);
      return await status(manager);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      printError(error.message);
      return error.exitCode;
    }
  },
};

async function install(manager: ServiceManager, dryRun: boolean): Promise<number> {
  const problem = servicePathProblem(serviceTarget(), process.platform);
  if (problem !== undefined) throw new CliError(`notifyctl service: ${problem}`);
  if (dryRun) {
    printLine(
      `Would write ${manager.file}:\n\n${manager.definition}\nthen run:\n${manager.startCommands.map((c) => `  ${shellLine(c)}`).join('\n')}`,
    );
    return 0;
  }
  const current = readDefinition(manager.file);
  if (current === manager.definition) printLine(`${manager.file} is up to date.`);
  else {
    writeDefinition(manager.file, manager.definition);
    printLine(`Wrote ${manager.file}.`);
  }
  return runOrExplain(
    manager,
    manager.startCommands,
    'Notify now runs as a user service: it starts at login and restarts after a failure.',
  );
}

async function uninstall(manager: ServiceManager, dryRun: boolean): Promise<number> {
  if (readDefinition(manager.file) === undefined) {
    printLine(`Notify is not installed as a service (${manager.file} does not exist).`);
    return 0;
  }
  if (dryRun) {
    printLine(
      `Would run:\n${manager.stopCommands.map((c) => `  ${shellLine(c)}`).join('\n')}\nthen remove ${manager.file}.`,
    );
    return 0;
  }
  const code = await runOrExplain(manager, manager.stopCommands, 'The service is stopped and disabled.');
  removeDefinition(manager.file);
  printLine(`Removed ${manager.file}.`);
  return code;
}

/** After an upgrade (`npm install -g` over the running service) the service runs the new files. */
async function restart(manager: ServiceManager, dryRun: boolean): Promise<number> {
  if (readDefinition(manager.file) === undefined) {
    printLine(
      `Notify is not installed as a service (${manager.file} does not exist); run 'notifyctl service install'.`,
    );
    return 1;
  }
  if (dryRun) {
    printLine(`Would run:\n${manager.restartCommands.map((c) => `  ${shellLine(c)}`).join('\n')}`);
    return 0;
  }
  return runOrExplain(
    manager,
    manager.restartCommands,
    'The service restarted: it runs the installed version now.',
  );
}

async function status(manager: ServiceManager): Promise<number> {
  const current = readDefinition(manager.file);
  if (current === undefined) {
    printLine(`not installed (${manager.file} does not exist); run 'notifyctl service install'`);
    return 0;
  }
  const stale =
    current === manager.definition
      ? ''
      : "; it points at another node or checkout: run 'notifyctl service install' to update it";
  printLine(`installed: ${manager.file}${stale}`);
  printLine(
    `state: ${(await manager.available()) ? await manager.state() : 'unknown (no service manager answers in this session)'}`,
  );
  return 0;
}

/** Runs the commands when the manager answers; otherwise prints them for the person to run. */
async function runOrExplain(manager: ServiceManager, commands: string[][], done: string): Promise<number> {
  if (!(await manager.available())) {
    printLine(
      `No service manager answers in this session; run these in your login session:\n${commands.map((c) => `  ${shellLine(c)}`).join('\n')}`,
    );
    return 0;
  }
  for (const [program, ...args] of commands) {
    const result = await runProgram(program!, args, process.env);
    if (!result.ok) {
      printError(`'${shellLine([program!, ...args])}' failed; run it yourself to see why.`);
      return 1;
    }
  }
  printLine(done);
  return 0;
}
