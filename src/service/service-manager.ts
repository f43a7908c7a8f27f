import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { attributesOf, replaceFile } from '../config/replace-file.js';
import {
  LAUNCHD_LABEL,
  SYSTEMD_UNIT_NAME,
  launchdPlist,
  systemdUnit,
  type ServiceTarget,
} from './service-definition.js';

export interface CommandResult {
  ok: boolean;
  stdout: string;
}

/** Runs a program with an argument array (never a shell), 10 s at most; a missing program is not ok. */
export function runProgram(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(program, args, { env, timeout: 10_000 }, (error, stdout) =>
      resolve({ ok: error === null, stdout: String(stdout).trim() }),
    );
  });
}

/** What install, uninstall and status need of a platform's service manager. */
export interface ServiceManager {
  /** Where the definition file lives. */
  file: string;
  /** The definition's text for this checkout. */
  definition: string;
  /** Whether the manager answers in this session (a systemd user manager, launchd). */
  available(): Promise<boolean>;
  /** The commands that load and start it, as argument arrays, in order. */
  startCommands: string[][];
  stopCommands: string[][];
  /** The command that stops and starts it again, so it runs the files installed now. */
  restartCommands: string[][];
  /** A line about the running state, when the manager answers. */
  state(): Promise<string>;
}

export function systemdManager(target: ServiceTarget, env: NodeJS.ProcessEnv): ServiceManager {
  const configHome = env['XDG_CONFIG_HOME']?.startsWith('/')
    ? env['XDG_CONFIG_HOME']
    : join(home(env), '.config');
  const systemctl = (...args: string[]) => runProgram('systemctl', ['--user', ...args], env);
  return {
    file: join(configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME),
    definition: systemdUnit(target),
    available: async () => (await systemctl('show-environment')).ok,
    startCommands: [
      ['systemctl', '--user', 'daemon-reload'],
      ['systemctl', '--user', 'enable', '--now', SYSTEMD_UNIT_NAME],
    ],
    stopCommands: [['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT_NAME]],
    restartCommands: [['systemctl', '--user', 'restart', SYSTEMD_UNIT_NAME]],
    state: async () => {
      const active = (await systemctl('is-active', SYSTEMD_UNIT_NAME)).stdout || 'unknown';
      const enabled = (await systemctl('is-enabled', SYSTEMD_UNIT_NAME)).stdout || 'unknown';
      return `${active}, ${enabled} (systemctl --user status ${SYSTEMD_UNIT_NAME})`;
    },
  };
}

export function launchdManager(target: ServiceTarget, env: NodeJS.ProcessEnv, uid: number): ServiceManager {
  const file = join(home(env), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  const logFile = join(home(env), 'Library', 'Application Support', 'notify', 'logs', 'notifyd.stderr.log');
  return {
    file,
    definition: launchdPlist(target, logFile),
    available: async () => (await runProgram('launchctl', ['version'], env)).ok,
    startCommands: [['launchctl', 'bootstrap', `gui/${uid}`, file]],
    stopCommands: [['launchctl', 'bootout', `gui/${uid}/${LAUNCHD_LABEL}`]],
    restartCommands: [['launchctl', 'kickstart', '-k', `gui/${uid}/${LAUNCHD_LABEL}`]],
    state: async () =>
      (await runProgram('launchctl', ['print', `gui/${uid}/${LAUNCHD_LABEL}`], env)).ok
        ? 'loaded'
        : 'not loaded',
  };
}

function home(env: NodeJS.ProcessEnv): string {
  return env['HOME'] || homedir();
}

export function readDefinition(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Temp file and rename, so the manager never reads half a definition; a rewrite keeps mode and owner. */
export function writeDefinition(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  replaceFile(file, text, attributesOf(file));
}

export function removeDefinition(file: string): void {
  rmSync(file, { force: true });
}
