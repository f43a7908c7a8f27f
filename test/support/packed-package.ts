import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout whose dist/ the tests were compiled into: what `npm pack` packs. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackReport {
  filename: string;
  entryCount: number;
  /** Bytes of the .tgz. */
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

/** Where `npm` itself is: the tests run it with this Node.js first on the PATH. */
function npmCli(): string {
  const found = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('npm is not on the PATH');
  return found;
}

/**
 * A folder for PATH holding only node (this one), npm, sh and env: no compiler, make or Python, so an
 * install that tries to build a native module fails here as it would on a fresh machine.
 */
export function compilerFreeBin(parent: string): string {
  const bin = join(parent, 'bare-bin');
  mkdirSync(bin, { recursive: true });
  const npm = npmCli();
  const tools: Record<string, string> = {
    node: process.execPath,
    npm,
    npx: join(npm, '..', 'npx'),
    sh: '/bin/sh',
    env: '/usr/bin/env',
  };
  for (const [name, target] of Object.entries(tools))
    if (!existsSync(join(bin, name))) symlinkSync(target, join(bin, name));
  return bin;
}

export interface CommandResult {
  code: number | null;
  /** stdout and stderr as they came. */
  output: string;
  stdout: string;
}

/**
 * Runs a command to its end with exactly `env`; a command still running after `deadlineMs` is killed
 * (its process group) and the result says so, so a stuck install fails the test instead of hanging it.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; deadlineMs: number },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = setTimeout(() => {
      output += `\n[killed after ${options.deadlineMs} ms]`;
      process.kill(-child.pid!, 'SIGKILL');
    }, options.deadlineMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, output, stdout });
    });
  });
}

/** `npm pack` of the checkout as it is built (no `prepare`: dist/ is already there), into `dir`. */
export async function packTarball(dir: string, options: { dryRun: boolean }): Promise<PackReport> {
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', dir];
  if (options.dryRun) args.push('--dry-run');
  const result = await runCommand(npmCli(), args, {
    env: { PATH: `${join(process.execPath, '..')}:${process.env['PATH']}`, HOME: dir },
    cwd: ROOT,
    deadlineMs: 120_000,
  });
  if (result.code !== 0) throw new Error(`npm pack failed:\n${result.output}`);
  const reports = JSON.parse(result.stdout) as PackReport[];
  const report = reports[0]!;
  return { ...report, filename: join(dir, report.filename) };
}

/**
 * The environment of a person with an empty HOME and no compiler: npm's user config starts empty. Only
 * what reaches the registry from this machine is passed on (its proxy and CA settings), and its cache.
 */
export function freshUserEnv(home: string, bin: string, extraPath: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: [...extraPath, bin].join(':'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TZ: 'UTC',
  };
  for (const name of [
    'NODE_EXTRA_CA_CERTS',
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'NO_PROXY',
    'no_proxy',
  ])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** `npm install -g <tarball>` into the prefix that `npm config set prefix` chose, as a person without root does. */
export async function installGlobally(
  tarball: string,
  env: NodeJS.ProcessEnv,
  prefix: string,
): Promise<CommandResult> {
  const configured = await runCommand('npm', ['config', 'set', `prefix=${prefix}`], {
    env,
    deadlineMs: 60_000,
  });
  if (configured.code !== 0) return configured;
  return runCommand('npm', ['install', '--global', '--foreground-scripts', tarball], {
    env,
    deadlineMs: 300_000,
  });
}

/** What in an install's output reads like trouble: a compile, an error, a warning. */
export function troubleIn(output: string): string[] {
  return output.split('\n').filter((line) => /gyp|npm (warn|error|ERR)|error/i.test(line));
}
