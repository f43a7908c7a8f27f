import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { startSshHost, type SshHost } from '../test/support/ssh-host.js';

const HOOK = fileURLToPath(new URL('../notify-hook.cjs', import.meta.url));
const RUNS = 30;

interface Case {
  name: string;
  env: NodeJS.ProcessEnv;
  /** Runs the hook as this user (the SSH host's), else as the bench's. */
  as?: { uid: number; gid: number; hook: string };
}

let session = 0;

/**
 * Issue 33: a hook's whole process, spawn to the answer of its raise (the notification is stored by
 * then: the broker answers a create only once it is committed), over the broker's port, over its Unix
 * socket with an agent token, and through an SSH RemoteForward of that socket (a real sshd on
 * loopback and a second local user: root only). Interleaved run by run; medians.
 */
export async function runRemoteSocketBench(): Promise<void> {
  const broker = await startBroker();
  let ssh: SshHost | undefined;
  let forward: ChildProcess | undefined;
  try {
    const socket = join(broker.home.home, '.local', 'state', 'notify', 'notify.sock');
    const agent = await token(broker, 'bench-box');
    const cases: Case[] = [
      { name: 'TCP port, owner token', env: broker.home.env },
      {
        name: 'Unix socket, agent token',
        env: { ...broker.home.env, NOTIFY_SOCKET: socket, NOTIFY_TOKEN: agent },
      },
    ];
    if (process.getuid?.() === 0 && existsSync('/usr/sbin/sshd')) {
      ssh = await startSshHost();
      ({ forward } = await sshCase(ssh, broker, socket, agent, cases));
    } else {
      console.log('SSH forward: skipped (needs root and openssh-server for a local sshd and user)');
    }
    for (const each of cases) time(each);
    const samples = cases.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run++) cases.forEach((each, index) => samples[index]!.push(time(each)));
    console.log(
      `runs: ${RUNS} each, interleaved; median wall time from spawning the hook to its raise stored`,
    );
    const tcp = median(samples[0]!);
    cases.forEach((each, index) => {
      const value = median(samples[index]!);
      console.log(
        `${each.name.padEnd(34)} ${value.toFixed(1)} ms  (${(value - tcp >= 0 ? '+' : '') + (value - tcp).toFixed(1)} ms vs TCP)`,
      );
    });
  } finally {
    forward?.kill();
    await broker.stop();
    broker.home.cleanup();
    ssh?.stop();
  }
}

async function token(broker: BrokerProcess, name: string): Promise<string> {
  const response = await broker.request('POST', '/v1/tokens', { name });
  return ((await response.json()) as { token: string }).token;
}

/** The remote user's hook talks to a socket that `ssh -R` forwards to the desk's. */
async function sshCase(ssh: SshHost, broker: BrokerProcess, socket: string, agent: string, cases: Case[]) {
  const { binDir } = ssh.deskSsh(broker.home.home);
  const folder = join(ssh.home, '.local', 'state', 'notify');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const hook = join(ssh.home, 'notify-hook.cjs');
  copyFileSync(HOOK, hook);
  for (const path of [join(ssh.home, '.local'), join(ssh.home, '.local', 'state'), folder, hook])
    chownSync(path, ssh.uid, ssh.gid);
  const remoteSocket = join(folder, 'desk.sock');
  const forward = spawn(
    join(binDir, 'ssh'),
    [
      '-N',
      '-o',
      'ExitOnForwardFailure=yes',
      '-p',
      String(ssh.port),
      '-R',
      `${remoteSocket}:${socket}`,
      `${ssh.user}@127.0.0.1`,
    ],
    { env: { ...broker.home.env, PATH: process.env['PATH'] }, stdio: 'ignore' },
  );
  for (let tries = 0; !(await connects(remoteSocket)); tries++) {
    if (tries > 200) throw new Error('the SSH forward did not open');
    await sleep(25);
  }
  cases.push({
    name: 'SSH RemoteForward of the socket',
    env: { HOME: ssh.home, PATH: '/usr/bin:/bin', NOTIFY_SOCKET: remoteSocket, NOTIFY_TOKEN: agent },
    as: { uid: ssh.uid, gid: ssh.gid, hook },
  });
  return { forward };
}

function connects(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function time({ name, env, as }: Case): number {
  const input = JSON.stringify({
    session_id: `bench-${process.pid}-${session++}`,
    cwd: '/',
    hook_event_name: 'Stop',
  });
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [as?.hook ?? HOOK, 'claude'], {
    env,
    input,
    encoding: 'utf8',
    ...(as && { uid: as.uid, gid: as.gid, cwd: '/' }),
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 || result.stdout !== '')
    throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
