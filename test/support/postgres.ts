import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOBODY } from './foreign-server.js';

/** A throwaway PostgreSQL cluster (Debian's `postgresql`): its own folder, a loopback port, trust auth. */
export interface TestPostgres {
  /** postgres://… of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** A new, empty database on the cluster: its URL. */
  createDatabase(): string;
  /**
   * A read-only standby replicating this cluster, as a failover or a misconfigured URL may hand a
   * relay: the URL of its `postgres` database. Stopped with the cluster.
   */
  startStandby(): Promise<string>;
  stop(): void;
}

function binFolder(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: the cluster belongs to `nobody` when the tests run as root, to
 * the tests' own user otherwise. Its socket stays in its folder, so it never meets the machine's own.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binFolder();
  const folder = mkdtempSync(join(tmpdir(), 'notify-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, NOBODY, NOBODY);
  const run = (program: string, args: string[]): void => {
    const result = spawnSync(join(bin, program), args, {
      ...(asRoot && { uid: NOBODY, gid: NOBODY }),
      cwd: folder,
      encoding: 'utf8',
    });
    if (result.status !== 0)
      throw new Error(`${program} failed (${result.status}): ${result.stderr}${result.stdout}`);
  };
  const data = join(folder, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c max_connections=60`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(folder, 'log'), '-w', 'start']);
  let databases = 0;
  const standbys: string[] = [];
  const url = (database: string): string => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: url('postgres'),
    port,
    createDatabase() {
      const name = `relay_${++databases}`;
      execFileSync(join(bin, 'psql'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'], {
        input: `CREATE DATABASE ${name};`,
      });
      return url(name);
    },
    async startStandby() {
      const standbyData = join(folder, 'standby');
      run('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-D',
        standbyData,
        '-R',
        '-c',
        'fast',
      ]);
      const standbyPort = await freePort();
      const standbyOptions = `-c listen_addresses=127.0.0.1 -p ${standbyPort} -k ${folder} -c fsync=off`;
      run('pg_ctl', [
        '-D',
        standbyData,
        '-o',
        standbyOptions,
        '-l',
        join(folder, 'standby-log'),
        '-w',
        'start',
      ]);
      standbys.push(standbyData);
      return `postgres://postgres@127.0.0.1:${standbyPort}/postgres`;
    },
    stop() {
      for (const standbyData of standbys) run('pg_ctl', ['-D', standbyData, '-m', 'immediate', 'stop']);
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
