import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

/**
 * A $BROWSER program that behaves like a browser given a launcher file: it writes down its arguments,
 * waits until the test lets it go on (so the test can look at the file and at what others saw while
 * the link was live; at most half a minute), then reads the file it was given, as the user, and requests the link the page
 * forwards to, without ever putting that link on a command line itself.
 */
export interface FollowingBrowser {
  program: string;
  /** The arguments it was started with, once it was. */
  args(): Promise<string[]>;
  /** Lets it go on to the link. */
  proceed(): void;
  /** The status the link answered it with (303 when it signed in); the file is renamed into place whole, so a read never sees it empty. */
  status(): Promise<number>;
}

export function followingBrowser(folder: string): FollowingBrowser {
  const program = join(folder, 'following-browser');
  const follower = join(folder, 'follow.cjs');
  const argsFile = join(folder, 'browser-args.json');
  const proceedFile = join(folder, 'browser-proceed');
  const statusFile = join(folder, 'browser-status');
  writeFileSync(
    follower,
    `const { readFileSync, renameSync, writeFileSync } = require('node:fs');
     const { fileURLToPath } = require('node:url');
     const target = process.argv[2];
     const page = readFileSync(target.startsWith('file:') ? fileURLToPath(target) : target, 'utf8');
     const link = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(page)[1];
     fetch(link, { redirect: 'manual' }).then((response) => {
       writeFileSync(${JSON.stringify(statusFile + '.part')}, String(response.status));
       renameSync(${JSON.stringify(statusFile + '.part')}, ${JSON.stringify(statusFile)});
     });`,
  );
  writeFileSync(
    program,
    `#!/bin/sh
${JSON.stringify(process.execPath)} -e 'const fs = require("node:fs"); fs.writeFileSync(process.argv[1] + ".part", JSON.stringify(process.argv.slice(2))); fs.renameSync(process.argv[1] + ".part", process.argv[1])' ${JSON.stringify(argsFile)} "$@"
waited=0
while [ ! -e ${JSON.stringify(proceedFile)} ] && [ $waited -lt 600 ]; do sleep 0.05; waited=$((waited + 1)); done
exec ${JSON.stringify(process.execPath)} ${JSON.stringify(follower)} "$1"
`,
  );
  chmodSync(program, 0o755);
  return {
    program,
    args: () =>
      waitFor(
        () => existsSync(argsFile) && (JSON.parse(readFileSync(argsFile, 'utf8')) as string[]),
        'the browser program to start',
      ),
    proceed: () => writeFileSync(proceedFile, ''),
    status: () =>
      waitFor(
        () => existsSync(statusFile) && Number(readFileSync(statusFile, 'utf8')),
        'the browser to follow',
      ),
  };
}
