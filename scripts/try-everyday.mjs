// Tries the README's "Using it every day" section as a new user would: a fresh clone of this checkout's
// HEAD, a fresh HOME, the commands exactly as the README gives them, one after another in one shell.
// NOTIFY_PORT is a free port, so a broker already on 47821 (yours, say) changes nothing. Exit 0 when
// every command worked and printed what the README promises; otherwise the transcript says where.
// Then issue 35's points against the same notifyd (scripts/everyday-issue-35.mjs), with screenshots of
// every page 390 px wide in --screens DIR (else in the run's folder, removed at the end unless --keep).
// Usage: node scripts/try-everyday.mjs [--keep] [--screens DIR]   (after npm ci; CI calls it from .ci/run)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { tryIssue35 } from './everyday-issue-35.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const screensAt = process.argv.indexOf('--screens');

/** The shell lines of the section's ```sh blocks, in order. */
function everydayCommands(readme) {
  const start = readme.indexOf('### Using it every day');
  const end = readme.indexOf('\n## ', start);
  if (start < 0) throw new Error('README.md has no "### Using it every day" section');
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1].split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * What a person does with each line, in a script: `notifyd` runs in the foreground in its own terminal,
 * so here it goes to the background until its banner is complete; `npm link` needs root, and the
 * README's ~/.local line that follows does the same without; the service is only shown (--dry-run), as
 * a test must not start anything at the login of whoever runs it.
 */
function asScript(line) {
  if (/^npm link\b/.test(line))
    return `echo "(skipped: needs root; the ~/.local install below does the same)"`;
  if (/^notifyd\s*$/.test(line))
    return [
      'notifyd > "$HOME/notifyd.out" 2>&1 & echo $! > "$HOME/notifyd.pid"',
      'for i in $(seq 100); do grep -q "Ctrl+C stops it." "$HOME/notifyd.out" && break; sleep 0.2; done',
      'cat "$HOME/notifyd.out"',
      'grep -q "Ctrl+C stops it." "$HOME/notifyd.out"',
    ].join('\n');
  if (/^notifyctl service install\b/.test(line)) return line.replace('install', 'install --dry-run');
  return line;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'notify-everyday-'));
const clone = join(work, 'notify');
const home = join(work, 'home');
mkdirSync(home);
const dirty = spawnSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).stdout.trim();
if (dirty) console.error('Note: uncommitted changes are not part of the clone; it holds HEAD.');
const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { stdio: 'inherit' });
if (cloned.status !== 0) process.exit(1);

const commands = everydayCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
const port = await freePort();
const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
const env = {
  // A new user's shell: this Node.js and the system's programs, nothing of ours on the PATH yet.
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  HOME: home,
  LANG: 'C.UTF-8',
  NOTIFY_PORT: String(port),
  // The download cache is shared so the run does not fetch every package again; it holds no settings.
  ...(cache && { npm_config_cache: cache }),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
};
const script = [
  'set -u',
  ...commands.map((line, index) =>
    [
      `echo "@@@ ${index} $ ${line.replaceAll('"', '\\"').replaceAll('$', '\\$')}"`,
      asScript(line),
      `echo "@@@ exit $?"`,
    ].join('\n'),
  ),
].join('\n');

console.log(`Trying README.md's everyday section in ${clone}, HOME=${home}, NOTIFY_PORT=${port}\n`);
const run = spawnSync('bash', ['-c', script], {
  cwd: clone,
  env,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const transcript = `${run.stdout}${run.stderr ? `\n[stderr]\n${run.stderr}` : ''}`;
const pid = (() => {
  try {
    return Number(readFileSync(join(home, 'notifyd.pid'), 'utf8'));
  } catch {
    return undefined;
  }
})();
/** Stops the notifyd this run started (by its pid) and waits up to 10 s for it to close its database. */
function stopNotifyd(id) {
  const alive = () => {
    try {
      process.kill(id, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(id, 'SIGTERM');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; alive() && waited < 10_000; waited += 100) Atomics.wait(pause, 0, 0, 100);
}
console.log(transcript.replace(/^@@@ exit \d+\n/gm, '').replace(/^@@@ \d+ /gm, '\n'));
const problems = [];
if (pid) {
  await tryIssue35({
    clone,
    env,
    port,
    screens: screensAt > 0 ? process.argv[screensAt + 1] : join(work, 'screens'),
    problems,
  }).catch((error) => problems.push(`issue 35's tour stopped: ${error.stack ?? error}`));
  stopNotifyd(pid);
  // Issue 35 point 8: with notifyd stopped, notifyctl names notifyd, not a tray app.
  const down = spawnSync(process.execPath, [join(clone, 'dist/src/cli/notifyctl/main.js'), 'pending'], {
    env,
    encoding: 'utf8',
  });
  console.log(`\n$ notifyctl pending   (notifyd stopped)\n${down.stderr.trimEnd()}`);
  if (!/Is notifyd running\?/.test(down.stderr) || /tray/i.test(down.stderr))
    problems.push(`notifyctl pending with notifyd stopped said: ${down.stderr.trim()}`);
}

/** Each command's output and exit code, by its line in the README. */
const steps = [...run.stdout.matchAll(/@@@ (\d+) \$ [^\n]*\n([\s\S]*?)@@@ exit (\d+)/g)].map((match) => ({
  line: commands[Number(match[1])],
  output: match[2],
  code: Number(match[3]),
}));
const step = (pattern) => steps.find((candidate) => pattern.test(candidate.line));
const expect = (pattern, what, check) => {
  const found = step(pattern);
  if (!found) return problems.push(`README no longer has a line matching ${pattern}`);
  if (found.code !== 0) return problems.push(`"${found.line}" exited ${found.code}`);
  if (check && !check(found.output)) problems.push(`"${found.line}": ${what}`);
};

if (steps.length !== commands.length)
  problems.push(`only ${steps.length} of ${commands.length} commands ran`);
expect(/^npm ci$/, 'installs');
expect(/--prefix ~\/\.local/, 'installs without an npm warning', (out) => !/npm warn/i.test(out));
expect(
  /^notifyd$/,
  'prints its banner with toasts, tray and sounds',
  (out) => out.includes(`Notify listening on http://127.0.0.1:${port}`) && /\n {2}sounds: /.test(out),
);
expect(/^notify "Build finished"/, 'prints the created notification', (out) =>
  /"title": "Build finished"/.test(out),
);
expect(/^notify list --unresolved$/, 'lists it', (out) => out.includes('Build finished'));
expect(/^notify health$/, 'says ok', (out) => /"status": "ok"/.test(out));
expect(/^curl /, 'answers the unresolved notification as JSON', (out) => {
  try {
    return JSON.parse(out).some((notification) => notification.title === 'Build finished');
  } catch {
    return false;
  }
});
expect(/^notifyctl hooks install claude/, 'installs the hooks');
expect(/^notifyctl service install/, 'shows the service');
expect(/^notifyctl doctor/, 'finds config, broker and token ok', (out) =>
  ['config', 'broker', 'token'].every((name) => new RegExp(`^ok +${name} `, 'm').test(out)),
);

expect(/^notifyctl help hooks/, 'prints the usage of hooks', (out) =>
  /^Usage: notifyctl hooks install/m.test(out),
);

// Every command answers --help with its usage and exit 0, as the newcomer tries them one by one.
const notifyctl = join(clone, 'dist/src/cli/notifyctl/main.js');
const listed = spawnSync(process.execPath, [notifyctl, '--help'], { env, encoding: 'utf8' }).stdout;
const names = [...listed.matchAll(/^ {2}([a-z][a-z-]+) /gm)].map((match) => match[1]);
if (names.length < 20) problems.push(`notifyctl --help lists only ${names.length} commands`);
for (const name of names) {
  const help = spawnSync(process.execPath, [notifyctl, name, '--help'], { env, encoding: 'utf8' });
  if (help.status !== 0 || !help.stdout.includes('Usage:') || help.stderr !== '')
    problems.push(`"notifyctl ${name} --help" exited ${help.status}: ${help.stderr || help.stdout}`);
}

if (!keep) rmSync(work, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`\nREADME's everyday section or issue 35's points failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nREADME's everyday section works from a fresh clone with a fresh HOME (${steps.length} commands), ` +
    'and so does each point of issue 35 tried above.',
);
