import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './broker-process.js';

/** A second local user, reachable over a real sshd on a loopback port: the "remote" of the desk. */
export interface SshHost {
  port: number;
  user: string;
  uid: number;
  gid: number;
  home: string;
  /** Gives the remote user a Node.js where a person without root would put one (~/.local/node). */
  giveNode(): void;
  /** Folders Claude Code makes, so `remote add` finds it. */
  giveClaude(): void;
  /**
   * The desk's side: a folder with an `ssh` that reads `$HOME/.ssh/config` (ssh itself reads the
   * passwd home, which the tests do not change) and that config's first lines: key, known host.
   */
  deskSsh(deskHome: string): { binDir: string };
  stop(): void;
}

const run = (file: string, args: string[]) => execFileSync(file, args, { stdio: 'pipe' }).toString();

/**
 * Creates a user with its own HOME and uid (removed by stop()), a host key and a client key in a
 * temp folder, and starts /usr/sbin/sshd on 127.0.0.1 with a config of its own, key login only.
 */
export async function startSshHost(): Promise<SshHost> {
  const root = mkdtempSync(join(tmpdir(), 'notify-ssh-'));
  chmodSync(root, 0o755);
  const user = `nfyr${process.pid}`.slice(0, 30);
  const home = join(root, 'home');
  run('useradd', ['-M', '-d', home, '-s', '/bin/sh', '-p', '*', user]);
  const uid = Number(run('id', ['-u', user]).trim());
  const gid = Number(run('id', ['-g', user]).trim());
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  const keys = join(root, 'keys');
  mkdirSync(keys, { mode: 0o700 });
  run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keys, 'host')]);
  run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keys, 'desk')]);
  writeFileSync(join(home, '.ssh', 'authorized_keys'), readFileSync(join(keys, 'desk.pub')), { mode: 0o600 });
  chownTree(home, uid, gid);
  const port = await freePort();
  const config = join(root, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(keys, 'host')}`,
      `PidFile ${join(root, 'sshd.pid')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      `AllowUsers ${user}`,
      'AllowStreamLocalForwarding yes',
      'StreamLocalBindUnlink yes',
      'PrintMotd no',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    sshd.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening')) resolve();
    });
    sshd.once('exit', (code) => reject(new Error(`sshd exited with ${code}: ${log}`)));
  });
  const hostKey = readFileSync(join(keys, 'host.pub'), 'utf8').trim();
  return {
    port,
    user,
    uid,
    gid,
    home,
    giveNode() {
      const bin = join(home, '.local', 'node', 'bin');
      mkdirSync(bin, { recursive: true });
      symlinkSync(process.execPath, join(bin, 'node'));
      chownTree(join(home, '.local'), uid, gid);
    },
    giveClaude() {
      mkdirSync(join(home, '.claude'), { recursive: true });
      chownTree(join(home, '.claude'), uid, gid);
    },
    deskSsh(deskHome) {
      const binDir = join(deskHome, 'ssh-bin');
      mkdirSync(binDir, { recursive: true });
      writeFileSync(join(binDir, 'ssh'), '#!/bin/sh\nexec /usr/bin/ssh -F "$HOME/.ssh/config" "$@"\n', {
        mode: 0o755,
      });
      mkdirSync(join(deskHome, '.ssh'), { recursive: true, mode: 0o700 });
      writeFileSync(join(deskHome, '.ssh', 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`);
      writeFileSync(
        join(deskHome, '.ssh', 'config'),
        [
          'Host *',
          `  IdentityFile ${join(keys, 'desk')}`,
          '  IdentitiesOnly yes',
          `  UserKnownHostsFile ${join(deskHome, '.ssh', 'known_hosts')}`,
          '  StrictHostKeyChecking yes',
          '  BatchMode yes',
          '  LogLevel ERROR',
          '',
        ].join('\n'),
        { mode: 0o600 },
      );
      return { binDir };
    },
    stop() {
      sshd.kill();
      // -f: a session process of the user may still be closing.
      run('userdel', ['-f', user]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function chownTree(path: string, uid: number, gid: number): void {
  execFileSync('chown', ['-R', `${uid}:${gid}`, path]);
  chownSync(path, uid, gid);
}
