// What the observation scripts (observe-claude*.mjs) share: the environment of a scratch HOME, and a
// notifyd started in it on a free port.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import process from 'node:process';

/** The environment of a scratch HOME: nothing of the person's own configuration reaches the run. */
export function scratchEnv(home, extra = {}) {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    ...extra,
  };
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `notifyd` (the built file) in the scratch HOME; its config.json folder must exist. */
export async function startBroker(notifyd, home, env) {
  const configFile = join(home, '.config', 'notify', 'config.json');
  writeFileSync(configFile, JSON.stringify({ port: await freePort() }));
  const child = spawn(process.execPath, [notifyd], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Notify listening on')) resolve();
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', () => reject(new Error(`notifyd ended before listening:\n${output}`)));
  });
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  return { child, base: `http://127.0.0.1:${config.port}`, token: config.authToken };
}
