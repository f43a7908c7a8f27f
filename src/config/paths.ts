import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface NotifyPaths {
  configDir: string;
  configFile: string;
  dataDir: string;
  databaseFile: string;
  logDir: string;
}

/** Where Notify keeps its files (conventions.md "Directories"); XDG on Linux. */
export function resolvePaths(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = env['HOME'] || homedir(),
): NotifyPaths {
  const { configDir, dataDir, logDir } = baseDirs(env, platform, home);
  return {
    configDir,
    configFile: join(configDir, 'config.json'),
    dataDir,
    databaseFile: join(dataDir, 'notify.db'),
    logDir,
  };
}

function baseDirs(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string) {
  if (platform === 'darwin') {
    const root = join(home, 'Library', 'Application Support', 'notify');
    return { configDir: root, dataDir: root, logDir: join(root, 'logs') };
  }
  if (platform === 'win32') {
    const root = join(env['APPDATA'] || join(home, 'AppData', 'Roaming'), 'notify');
    return { configDir: root, dataDir: root, logDir: join(root, 'logs') };
  }
  const xdg = (name: string, fallback: string) => {
    const value = env[name];
    return value && value.startsWith('/') ? value : join(home, fallback);
  };
  return {
    configDir: join(xdg('XDG_CONFIG_HOME', '.config'), 'notify'),
    dataDir: join(xdg('XDG_DATA_HOME', '.local/share'), 'notify'),
    logDir: join(xdg('XDG_STATE_HOME', '.local/state'), 'notify', 'logs'),
  };
}

/**
 * The private folder where the one-time sign-in launchers are written (docs/web-security.md): under
 * $XDG_RUNTIME_DIR, which only this user can enter and which ends with the login; without one, in
 * Notify's state folder on Linux, or the per-user temporary folder on macOS and Windows.
 */
export function launcherDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = env['HOME'] || homedir(),
): string {
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime && runtime.startsWith('/')) return join(runtime, 'notify');
  if (platform === 'darwin' || platform === 'win32') return join(env['TMPDIR'] || tmpdir(), 'notify');
  const state = env['XDG_STATE_HOME'];
  return join(state && state.startsWith('/') ? state : join(home, '.local/state'), 'notify', 'run');
}

/**
 * The broker's Unix socket (issue 33): `$XDG_RUNTIME_DIR/notify/notify.sock`, a private folder that
 * ends with the login; without one, `notify.sock` in Notify's state folder. Linux and macOS only.
 */
export function brokerSocketPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = env['HOME'] || homedir(),
): string | undefined {
  if (platform === 'win32') return undefined;
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime && runtime.startsWith('/')) return join(runtime, 'notify', 'notify.sock');
  return join(dirname(resolvePaths(env, platform, home).logDir), 'notify.sock');
}
