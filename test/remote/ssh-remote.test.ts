import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NotificationDto } from '../../src/client/api-types.js';
import { fixtureFile, fixtures } from '../hooks/support.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { startSshHost, type SshHost } from '../support/ssh-host.js';
import { waitFor } from '../support/wait-for.js';

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

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('notifyctl remote: an agent on an SSH host reaches the desk', () => {
  let ssh: SshHost;
  let broker: BrokerProcess;
  let env: NodeJS.ProcessEnv;
  const forwards: ChildProcess[] = [];

  before(async () => {
    ssh = await startSshHost();
    broker = await startBroker();
    const { binDir } = ssh.deskSsh(broker.home.home);
    env = { ...broker.home.env, PATH: `${binDir}:${process.env['PATH']}` };
  });
  after(async () => {
    for (const child of forwards) child.kill();
    await broker.stop();
    broker.home.cleanup();
    ssh.stop();
  });

  /** Runs a command on the remote as its user would (the shell an agent tool runs hooks with). */
  function asRemoteUser(command: string, stdin = ''): Promise<Finished> {
    return new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', command], {
        uid: ssh.uid,
        gid: ssh.gid,
        cwd: ssh.home,
        env: { HOME: ssh.home, PATH: '/usr/local/bin:/usr/bin:/bin' },
        stdio: 'pipe',
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

  /** The command `remote add` installed for an event in the remote's Claude Code settings. */
  function installedCommand(event: string): string {
    const settings = JSON.parse(readFileSync(join(ssh.home, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    return settings.hooks[event]![0]!.hooks[0]!.command;
  }

  /** The person's `ssh api-box`: the session that opens the forward. */
  async function openForward(): Promise<ChildProcess> {
    const child = spawn('ssh', ['-N', '-o', 'ExitOnForwardFailure=yes', 'api-box'], { env, stdio: 'ignore' });
    forwards.push(child);
    // A socket an earlier session left behind may be there already: wait until one answers.
    await waitFor(() => connects(join(ssh.home, '.local', 'state', 'notify', 'desk.sock')), 'the forward');
    return child;
  }

  it('says how to get Node.js without root when the remote has none new enough, and changes nothing', async () => {
    const result = await runNotifyctl(
      ['remote', 'add', `${ssh.user}@127.0.0.1`, '-p', String(ssh.port), '--name', 'api-box'],
      { env },
    );
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stderr,
      /api-box needs Node\.js 22 or later for Notify's client and hooks, and (no Node\.js was found there|only v\d+)/,
    );
    assert.match(result.stderr, /~\/\.local\/node\/bin\/node/);
    const tokens = (await (await broker.request('GET', '/v1/tokens')).json()) as { tokens: unknown[] };
    assert.deepEqual(tokens.tokens, []);
    assert.equal(
      readFileSync(join(broker.home.home, '.ssh', 'config'), 'utf8').includes('notify remote'),
      false,
    );
  });

  it('remote add: token, client, config 0600, Claude Code hooks, and a marked Host block with the forward', async () => {
    ssh.giveNode();
    ssh.giveClaude();
    const result = await runNotifyctl(
      ['remote', 'add', `${ssh.user}@127.0.0.1`, '-p', String(ssh.port), '--name', 'api-box'],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Connect with: ssh api-box/);

    const configFile = join(ssh.home, '.config', 'notify', 'config.json');
    const info = statSync(configFile);
    assert.equal(info.mode & 0o777, 0o600);
    assert.equal(info.uid, ssh.uid);
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, string>;
    assert.match(config['authToken']!, /^nfa_/);
    assert.equal(config['socket'], join(ssh.home, '.local', 'state', 'notify', 'desk.sock'));
    assert.equal(result.stdout.includes(config['authToken']!), false, 'the token is never printed');

    const sshConfig = readFileSync(join(broker.home.home, '.ssh', 'config'), 'utf8');
    const socket = join(broker.home.home, '.local', 'state', 'notify', 'notify.sock');
    assert.match(sshConfig, /# >>> notify remote api-box /);
    assert.ok(sshConfig.includes(`RemoteForward ${config['socket']} ${socket}`), sshConfig);
    assert.match(sshConfig, /StreamLocalBindUnlink yes/);
    assert.match(installedCommand('Notification'), /notify-hook\.cjs claude(;|$)/);

    const list = await runNotifyctl(['remote', 'list'], { env });
    assert.match(
      list.stdout,
      new RegExp(`^api-box  ${ssh.user}@127\\.0\\.0\\.1:${ssh.port}  token last used never`, 'm'),
    );
  });

  it('remote test goes through the forward and raises at the desk', async () => {
    const result = await runNotifyctl(['remote', 'test', 'api-box'], { env });
    assert.equal(result.code, 0, result.stderr);
    const list = (await (
      await broker.request('GET', '/v1/notifications?q=reaches')
    ).json()) as NotificationDto[];
    assert.equal(list[0]?.raisedBy, 'api-box');
  });

  it("a Claude Code hook run as that user raises at the desk, marked with the host's name", async () => {
    const forward = await openForward();
    const payload = {
      ...fixtures('claude')['Notification.permission_prompt']!,
      session_id: 'ssh-1',
      cwd: ssh.home,
    };
    const hook = await asRemoteUser(installedCommand('Notification'), JSON.stringify(payload));
    assert.deepEqual(hook, { code: 0, stdout: '', stderr: '' });
    const [raised] = (await (
      await broker.request('GET', '/v1/notifications?key=claude-code%3Assh-1')
    ).json()) as NotificationDto[];
    assert.equal(raised?.raisedBy, 'api-box');
    assert.equal(raised?.agent, 'claude-code');

    // A PermissionRequest waits there for the Allow given at the desk.
    const request = {
      ...fixtureFile('claude-code-2.1.332')['PermissionRequest']!,
      session_id: 'ssh-2',
      cwd: ssh.home,
    };
    const waiting = asRemoteUser(installedCommand('PermissionRequest'), JSON.stringify(request));
    let asked: NotificationDto | undefined;
    await waitFor(async () => {
      const list = (await (
        await broker.request('GET', '/v1/notifications?key=claude-code%3Assh-2')
      ).json()) as NotificationDto[];
      asked = list.find((n) => n.actions !== undefined && n.status === 'active');
      return asked !== undefined;
    }, 'the permission request at the desk');
    assert.equal(asked!.raisedBy, 'api-box');
    const answered = await broker.request('POST', `/v1/notifications/${asked!.id}/answer`, {
      action: 'allow',
      revision: asked!.revision,
    });
    assert.equal(answered.status, 200);
    const finished = await waiting;
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(JSON.parse(finished.stdout).hookSpecificOutput.decision.behavior, 'allow');

    // The session ends: the hook goes quiet, notify says what to do.
    forward.kill();
    await new Promise((resolve) => forward.once('exit', resolve));
    const quiet = await asRemoteUser(
      installedCommand('Notification'),
      JSON.stringify({ ...payload, session_id: 'ssh-3' }),
    );
    assert.deepEqual(quiet, { code: 0, stdout: '', stderr: '' });
    const send = await asRemoteUser('"$HOME/.local/bin/notify" "Build done"');
    assert.equal(send.code, 1);
    assert.match(send.stderr, /the forward to the desk is not open: connect with ssh api-box/);
  });

  it('remote remove: the token is refused, the Host block and the remote hooks are gone', async () => {
    const token = (
      JSON.parse(readFileSync(join(ssh.home, '.config', 'notify', 'config.json'), 'utf8')) as {
        authToken: string;
      }
    ).authToken;
    const result = await runNotifyctl(['remote', 'remove', 'api-box'], { env });
    assert.equal(result.code, 0, result.stderr);
    const refused = await broker.request('GET', '/v1/health', undefined, {
      authorization: `Bearer ${token}`,
    });
    assert.equal(refused.status, 401);
    const sshConfig = readFileSync(join(broker.home.home, '.ssh', 'config'), 'utf8');
    assert.equal(sshConfig.includes('api-box'), false, sshConfig);
    assert.match(sshConfig, /^Host \*/);
    assert.equal(
      readFileSync(join(ssh.home, '.claude', 'settings.json'), 'utf8').includes('notify-hook'),
      false,
    );
    assert.equal(existsSync(join(ssh.home, '.config', 'notify', 'config.json')), false);
  });
});
