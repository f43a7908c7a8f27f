import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HttpError } from '../../../client/errors.js';
import type { NotifyClient } from '../../../client/notify-client.js';
import { assertOwnSocket } from '../../../client/socket-owner.js';
import { brokerSocketPath } from '../../../config/paths.js';
import { checkTokenName } from '../../../domain/agent-token.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import { CliError } from '../../notify/failure.js';
import { printError, printLine } from '../../notify/output.js';
import { runBrokerCommand } from '../broker-command.js';
import type { NotifyctlCommand } from '../command.js';
import { containerLines } from './container-lines.js';
import { installClient, installHooks, remoteLayout, uninstallRemote } from './remote-files.js';
import { missingNodeMessage, parseProbe, PROBE_SCRIPT } from './remote-probe.js';
import { hostBlocks, withHostBlock, withoutHostBlock, type RemoteHost } from './ssh-config-block.js';
import { runSsh, type SshTarget } from './ssh-run.js';

const USAGE = [
  'Usage: notifyctl remote add [user@]host [-p PORT] [--name NAME]',
  '       notifyctl remote list',
  '       notifyctl remote test NAME',
  '       notifyctl remote remove NAME',
  '       notifyctl remote container [--name NAME]',
  '',
  'Agents on an SSH host reach this desk through a socket SSH forwards while you are connected',
  '(ssh NAME); a dev container mounts the socket. Each gets an agent token of its own. See docs/remote.md.',
].join('\n');

const FLAGS = {
  '-p': { kind: 'value', name: 'ssh-port' },
  '--name': { kind: 'value', name: 'name' },
} as const;

const sshConfigFile = () => join(process.env['HOME'] || homedir(), '.ssh', 'config');

function readSshConfig(): string {
  try {
    return readFileSync(sshConfigFile(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

function writeSshConfig(text: string): void {
  const file = sshConfigFile();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export const remoteCommand: NotifyctlCommand = {
  name: 'remote',
  summary: 'agents on SSH hosts and in containers reach this desk (add, list, test, ...)',
  run: async (argv) => {
    const [action, ...rest] = argv;
    if (action === undefined || action === 'help' || action === '--help') {
      (action === undefined ? printError : printLine)(USAGE);
      return action === undefined ? 1 : 0;
    }
    const run = ACTIONS[action];
    if (!run) {
      printError(`notifyctl remote: unknown action '${action}'.\n${USAGE}`);
      return 1;
    }
    return runBrokerCommand(`remote ${action}`, rest, FLAGS, async ({ parsed, client }) =>
      run(parsed.positionals, parsed.options, client),
    );
  },
};

type Action = (
  positionals: string[],
  options: Map<string, string | true>,
  client: NotifyClient,
) => Promise<number>;

const ACTIONS: Record<string, Action> = {
  add,
  list: async (positionals, _options, client) => {
    if (positionals.length > 0) throw new CliError(USAGE);
    const hosts = hostBlocks(readSshConfig());
    if (hosts.length === 0) {
      printLine('(no remotes; add one with notifyctl remote add [user@]host)');
      return 0;
    }
    const { tokens } = await client.request<{ tokens: { name: string; lastUsedAt: string | null }[] }>(
      'GET',
      '/v1/tokens',
    );
    for (const host of hosts) {
      const token = tokens.find((t) => t.name === host.name);
      const where = `${host.user === undefined ? '' : `${host.user}@`}${host.hostName}${host.port === undefined ? '' : `:${host.port}`}`;
      const used = token === undefined ? 'token revoked' : `token last used ${token.lastUsedAt ?? 'never'}`;
      printLine(`${host.name}  ${where}  ${used}`);
    }
    return 0;
  },
  test: async (positionals) => {
    const host = existingHost(positionals);
    // Through the Host alias, so this ssh opens the forward as the person's own would.
    const result = await runSsh(
      { destination: host.name, withForwards: true },
      `"$HOME/.local/bin/notify" send "Notify remote test" "${host.name} reaches this desk" --agent notify --type success`,
    );
    if (result.code !== 0) {
      printError(`notifyctl remote test: ${host.name} did not reach this desk:`);
      printError((result.stderr || result.stdout).trim());
      return 1;
    }
    printLine(`${host.name} reaches this desk through the forward: a test notification was raised.`);
    return 0;
  },
  remove: async (positionals, _options, client) => {
    const host = existingHost(positionals);
    try {
      await uninstallRemote({ destination: host.name }, host.name);
      printLine(`Removed Notify's hooks, command and config from ${host.name}.`);
    } catch (error) {
      printError(
        `notifyctl remote remove: ${host.name} could not be cleaned (${(error as Error).message}); ` +
          'its token is revoked anyway, so it cannot reach this desk.',
      );
    }
    await revoke(client, host.name);
    writeSshConfig(withoutHostBlock(readSshConfig(), host.name));
    printLine(`Revoked the agent token "${host.name}" and removed its Host block from ${sshConfigFile()}.`);
    return 0;
  },
  container: async (positionals, options) => {
    if (positionals.length > 0) throw new CliError(USAGE);
    const socket = brokerSocketPath(process.env);
    if (socket === undefined) throw new CliError('notifyctl remote container: no Unix socket on this system');
    const name = typeof options.get('name') === 'string' ? (options.get('name') as string) : 'devcontainer';
    printLine(containerLines(name, socket));
    return 0;
  },
};

function existingHost(positionals: string[]): RemoteHost {
  if (positionals.length !== 1) throw new CliError(USAGE);
  const host = hostBlocks(readSshConfig()).find((h) => h.name === positionals[0]);
  if (!host)
    throw new CliError(
      `no remote named "${positionals[0]}" in ${sshConfigFile()}; see notifyctl remote list`,
    );
  return host;
}

async function revoke(client: NotifyClient, name: string): Promise<void> {
  try {
    await client.request('DELETE', `/v1/tokens/${encodeURIComponent(name)}`);
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 404)) throw error;
  }
}

function parseTarget(text: string | undefined): { user?: string; host: string } {
  if (text === undefined) throw new CliError(USAGE);
  const at = text.lastIndexOf('@');
  const user = at > 0 ? text.slice(0, at) : undefined;
  const host = text.slice(at + 1);
  if (host === '' || host.startsWith('-') || /[\s/]/.test(host) || (user !== undefined && /[\s@]/.test(user)))
    throw new CliError(`"${text}" is not [user@]host`);
  return { ...(user !== undefined && { user }), host };
}

async function add(
  positionals: string[],
  options: Map<string, string | true>,
  client: NotifyClient,
): Promise<number> {
  if (positionals.length !== 1) throw new CliError(USAGE);
  const { user, host } = parseTarget(positionals[0]);
  const portText = options.get('ssh-port');
  const port = typeof portText === 'string' ? Number(portText) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
    throw new CliError('-p must be a port from 1 to 65535');
  const nameOption = options.get('name');
  const name = typeof nameOption === 'string' ? nameOption : host.toLowerCase();
  try {
    checkTokenName(name);
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new CliError(`--name: ${error.message}`);
    throw error;
  }
  const localSocket = brokerSocketPath(process.env);
  if (localSocket === undefined)
    throw new CliError('SSH remotes need the Unix socket, which this system lacks');
  try {
    assertOwnSocket(localSocket);
  } catch (error) {
    throw new CliError(
      `Notify's socket ${localSocket} cannot be used (${(error as Error).message}): start notifyd, which listens there beside its port, then run this again`,
    );
  }
  if (hostBlocks(readSshConfig()).some((h) => h.name === name))
    throw new CliError(`"${name}" is set up already; notifyctl remote remove ${name} first`);

  const target: SshTarget = {
    destination: user === undefined ? host : `${user}@${host}`,
    ...(port !== undefined && { port }),
  };
  printLine(`Connecting to ${target.destination}...`);
  const probe = await runSsh(target, PROBE_SCRIPT);
  if (probe.code !== 0)
    throw new CliError(`ssh ${target.destination} failed: ${probe.stderr.trim() || `exit ${probe.code}`}`);
  const facts = parseProbe(probe.stdout);
  if (facts.node === undefined) throw new CliError(missingNodeMessage(name, facts));

  const created = await client.request<{ token: string }>('POST', '/v1/tokens', { name });
  const layout = remoteLayout(facts.home, facts.configHome);
  let hooks: string[];
  try {
    await installClient(target, layout, facts.node, { authToken: created.token, forwardName: name });
    hooks = await installHooks(target, facts.home, facts.agents, facts.node, layout);
  } catch (error) {
    await revoke(client, name);
    throw new CliError(
      `notifyctl remote add: ${(error as Error).message}; the token made for ${name} was revoked`,
    );
  }
  writeSshConfig(
    withHostBlock(readSshConfig(), {
      name,
      hostName: host,
      ...(user !== undefined && { user }),
      ...(port !== undefined && { port }),
      remoteSocket: layout.socket,
      localSocket,
    }),
  );
  printLine(
    [
      `${name} is set up (agent token "${name}", Node.js ${facts.node}).`,
      `  client:  ${layout.wrapper}`,
      `  config:  ${layout.config} (mode 0600: the token and the socket ${layout.socket})`,
      `  hooks:   ${hooks.length > 0 ? hooks.join(', ') : 'no agent tool found there; install one, then run notifyctl remote remove and add again'}`,
      `  ssh:     Host ${name} in ${sshConfigFile()} forwards that socket to ${localSocket}`,
      `Connect with: ssh ${name}   While that session is open, agents there reach this desk.`,
      `Check it with: notifyctl remote test ${name}`,
    ].join('\n'),
  );
  return 0;
}
