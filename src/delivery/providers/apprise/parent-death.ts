import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The program at `name` on PATH, as the shell would find it; undefined when there is none. */
export function onPath(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let setpriv: string | null | undefined;

/**
 * util-linux's `setpriv --pdeathsig KILL` (2.33 and later), when this system has it: checked once by
 * running it.
 */
function deathSignalRunner(): string | undefined {
  if (setpriv === undefined) {
    const found = process.platform === 'linux' ? onPath('setpriv') : undefined;
    const works =
      found !== undefined &&
      spawnSync(found, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 }).status ===
        0;
    setpriv = works ? found : null;
  }
  return setpriv ?? undefined;
}

/**
 * How to start `program` so that it dies with the broker, kill -9 included: under `setpriv
 * --pdeathsig KILL`, the kernel kills it when the thread that started it ends. Otherwise a delivery
 * that outlived a killed broker would still be sent while the restarted broker sends the item again.
 * Without setpriv (macOS, old util-linux) the program runs as it is.
 */
export function dyingWithParent(program: string, args: readonly string[]): [string, string[]] {
  const runner = deathSignalRunner();
  return runner === undefined
    ? [program, [...args]]
    : [runner, ['--pdeathsig', 'KILL', '--', program, ...args]];
}
