// Watches the real Codex TUI in tmux while Notify's installed PermissionRequest hook waits (docs/agents.md,
// "Codex: a short wait, then the terminal"): Codex shows only "Running hook" while the hook runs and its own
// approval dialog once the hook returns, so this measures the time from the request appearing in Notify to
// Codex's dialog appearing on screen (tmux capture-pane, every 50 ms) with the wait `notifyctl hooks install
// codex` writes (10 s), and the time from an Allow given in Notify to the command running without a dialog.
// On the way it checks what `notifyctl doctor` says before and after the person trusts the hooks at Codex's
// "Hooks need review" screen, and at the end that the project's next Codex session ends the "Codex finished"
// the last one left. Offline: Codex talks to a stand-in of the Responses API served here
// (codex-stand-in.mjs) through a model provider of its config.toml, with `approval_policy = "on-request"`,
// where the stand-in's call asking to run outside the sandbox needs the person's approval. Everything lives
// in a temp HOME (CODEX_HOME inside it): a real notifyd on a free port, the hooks as `notifyctl hooks install
// codex` writes them, and beside each a recorder that keeps the payloads Codex sent (--record writes them
// out, the stuff of test/fixtures/hooks/codex-<version>.json). Exit 0 when Codex behaved as the docs say, 1
// when not (with the pane), 2 when it cannot run. Not part of `npm test`: it needs Codex and tmux.
//
// Usage: npm run build && node scripts/observe-codex-tui.mjs [--codex <path>] [--runs <n>] [--record <file>] [--keep]
//   --codex   the codex binary (default: `codex` on PATH); for a scratch copy:
//             npm install --prefix /tmp/codex171 @openai/codex@0.171.0
//             node scripts/observe-codex-tui.mjs --codex /tmp/codex171/node_modules/.bin/codex
//   --runs    how many requests go unanswered, each timed to the dialog (default 3)
//   --record  write the hook payloads Codex sent, by event, to this JSON file
//   --keep    keep the temp folder (HOME, Notify's log, recorded payloads) and print where it is
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { startCodexStandIn } from './codex-stand-in.mjs';
import { scratchEnv, startBroker } from './observe-broker.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const NOTIFYD = join(root, 'dist/src/cli/notifyd.js');
const NOTIFYCTL = join(root, 'dist/src/cli/notifyctl/main.js');
const HOOK = join(root, 'dist/notify-hook.cjs');
const DIALOG = 'Would you like to run the following command?';
const PROMPT_READY = 'Ask Codex to do anything';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const keep = args.includes('--keep');
const codex = option('--codex') ?? 'codex';
const runs = Number(option('--runs') ?? 3);
const recordTo = option('--record');

function cannotRun(message) {
  console.error(`observe-codex-tui: ${message}`);
  process.exit(2);
}

function versionOf(program, flag) {
  const run = spawnSync(program, [flag], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

if (!existsSync(NOTIFYD) || !existsSync(HOOK)) cannotRun('run `npm run build` first');
if (!(runs >= 1 && runs <= 20)) cannotRun('--runs takes 1 to 20');
const versions = {
  codex: versionOf(codex, '--version') ?? cannotRun(`no Codex at ${codex} (see --codex)`),
  node: process.version,
  tmux: versionOf('tmux', '-V') ?? cannotRun('tmux is not installed'),
};

const scratch = mkdtempSync(join(tmpdir(), 'notify-observe-codex-'));
const home = join(scratch, 'home');
const codexHome = join(home, '.codex');
const project = join(scratch, 'project');
const recorded = join(scratch, 'recorded');
for (const folder of [codexHome, join(project, '.git'), recorded, join(home, '.config', 'notify')])
  mkdirSync(folder, { recursive: true });
const logDir = join(home, '.local', 'state', 'notify', 'logs');
const env = scratchEnv(home, { TERM: 'xterm-256color', CODEX_HOME: codexHome, STANDIN_API_KEY: 'stand-in' });

function notifyctl(...words) {
  return spawnSync(process.execPath, [NOTIFYCTL, ...words], { env, encoding: 'utf8', cwd: project });
}

function tmux(...words) {
  return spawnSync('tmux', ['-S', join(scratch, 'tmux.socket'), ...words], { env, encoding: 'utf8' });
}

const pane = () => tmux('capture-pane', '-p', '-t', 'codex').stdout ?? '';

async function until(what, probe, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; the pane:\n${pane()}`);
    await sleep(50);
  }
}

function hookLines() {
  if (!existsSync(logDir)) return [];
  return readdirSync(logDir)
    .sort()
    .flatMap((file) => readFileSync(join(logDir, file), 'utf8').split('\n'))
    .filter((line) => line.includes('hook codex'));
}

/** Processes this run started that outlive the TUI: Codex 0.171.0 leaves its app-server daemon running. */
function ownProcesses() {
  return readdirSync('/proc')
    .filter((name) => /^[0-9]+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(scratch);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/** A recorder beside each of Notify's entries: it keeps the payload, one file per call. */
function addRecorders() {
  const recorder = join(scratch, 'record-hook.cjs');
  writeFileSync(
    recorder,
    `let body = ''; process.stdin.on('data', (c) => (body += c)); process.stdin.on('end', () => {` +
      ` const event = (() => { try { return JSON.parse(body).hook_event_name; } catch { return 'unparsed'; } })();` +
      ` require('node:fs').writeFileSync(require('node:path').join(${JSON.stringify(recorded)}, Date.now() + '-' + process.pid + '-' + event + '.json'), body); });\n`,
  );
  const file = join(codexHome, 'hooks.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  const events = [...Object.keys(settings.hooks), 'PreToolUse', 'SubagentStop', 'PreCompact'];
  for (const event of new Set(events)) {
    settings.hooks[event] ??= [];
    settings.hooks[event].push({
      hooks: [{ type: 'command', command: `${process.execPath} ${recorder}`, timeout: 5 }],
    });
  }
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

function recordedPayloads() {
  const byEvent = {};
  for (const file of readdirSync(recorded).sort()) {
    const [, , event] = file.replace(/\.json$/, '').split('-');
    byEvent[event] ??= JSON.parse(readFileSync(join(recorded, file), 'utf8'));
  }
  return byEvent;
}

async function main() {
  const standIn = await startCodexStandIn();
  const broker = await startBroker(NOTIFYD, home, env);
  const brokerEnded = new Promise((resolve) => broker.child.once('exit', resolve));
  const cleanUp = async () => {
    tmux('kill-server');
    await sleep(500);
    for (const pid of ownProcesses()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    // The daemon writes into CODEX_HOME on its way out: remove the folder only once it is gone.
    for (let waited = 0; ownProcesses().length > 0 && waited < 5000; waited += 100) await sleep(100);
    broker.child.kill('SIGTERM');
    await brokerEnded;
    standIn.close();
    if (keep) console.log(`\nKept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    return await observe(standIn, broker);
  } finally {
    await cleanUp();
  }
}

async function observe(standIn, broker) {
  const api = async (path) => {
    const response = await globalThis.fetch(`${broker.base}${path}`, {
      headers: { authorization: `Bearer ${broker.token}` },
    });
    return response.json();
  };
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "stand-in-model"',
      'model_provider = "standin"',
      'approval_policy = "on-request"',
      'sandbox_mode = "read-only"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.standin]',
      'name = "Stand-in"',
      `base_url = "http://127.0.0.1:${standIn.address().port}/v1"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      '',
      `[projects.${JSON.stringify(project)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
  const installed = notifyctl('hooks', 'install', 'codex');
  if (installed.status !== 0) throw new Error(`hooks install codex: ${installed.stderr}`);
  addRecorders();
  const doctorLine = () => /^\S+ +hooks +.*$/m.exec(notifyctl('doctor').stdout)?.[0] ?? '(no hooks line)';
  const before = doctorLine();

  const startCodex = () => {
    const started = tmux(
      ...['new-session', '-d', '-s', 'codex', '-x', '160', '-y', '50', '-c', project],
      ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      codex,
    );
    if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  };
  startCodex();
  await until('"Hooks need review"', () => pane().includes('Hooks need review'));
  tmux('send-keys', '-t', 'codex', '2');
  await until('"Trust all and continue" chosen', () => pane().includes('› 2. Trust all'));
  tmux('send-keys', '-t', 'codex', 'Enter');
  await until('the prompt', () => pane().includes(PROMPT_READY));
  const after = doctorLine();

  const openRequest = async () => {
    const active = await api('/v1/notifications?status=active&agent=codex&limit=5');
    return active.find((each) => Array.isArray(each.actions) && each.answer === undefined);
  };
  const ask = async (command) => {
    tmux('send-keys', '-t', 'codex', '-l', `RUN: ${command}`);
    await sleep(300);
    tmux('send-keys', '-t', 'codex', 'Enter');
    const request = await until('the request in Notify', openRequest);
    return { request, seenAt: Date.now() };
  };
  const stops = () => hookLines().filter((line) => line.includes('Stop: raise completion')).length;
  /** Waits for the Stop after the `before`th: the turn has ended and "Codex finished" is raised. */
  const nextStop = (before) => until('Codex to finish its turn', () => stops() > before, 60000);

  const toDialog = [];
  const problems = [];
  for (let run = 1; run <= runs; run += 1) {
    const before = stops();
    const { request, seenAt } = await ask(`touch unanswered-${run}`);
    if (pane().includes(DIALOG)) problems.push(`run ${run}: the dialog was there while the hook waited`);
    await until("Codex's approval dialog", () => pane().includes(DIALOG), 40000);
    const shownAt = Date.now();
    toDialog.push({ fromSeen: shownAt - seenAt, fromCreated: shownAt - Date.parse(request.createdAt) });
    const now = (await api(`/v1/notifications/${request.id}`)) ?? {};
    if (!String(now.message).endsWith('Answer in the terminal.') || now.actions !== undefined)
      problems.push(`run ${run}: the request did not hand over to the terminal: ${JSON.stringify(now)}`);
    tmux('send-keys', '-t', 'codex', 'y');
    await nextStop(before);
  }

  const beforeAllow = stops();
  const { request } = await ask('touch allowed-from-notify');
  const answeredAt = Date.now();
  const answered = notifyctl('answer', request.id, 'allow', '--revision', String(request.revision));
  if (answered.status !== 0) problems.push(`notifyctl answer: ${answered.stderr}`);
  await until('the command to run', () => existsSync(join(project, 'allowed-from-notify')), 30000);
  const allowToRun = Date.now() - answeredAt;
  await nextStop(beforeAllow);
  if (pane().includes(DIALOG)) problems.push('after Allow in Notify, the dialog showed anyway');

  // The project's next session ends the "finished" this one left (docs/agents.md, SessionStart).
  const finished = (await api('/v1/notifications?status=active&agent=codex&limit=5')).find(
    (each) => each.type === 'completed',
  );
  if (finished === undefined) problems.push('no "Codex finished" after the turn');
  tmux('send-keys', '-t', 'codex', '-l', '/quit');
  await sleep(300);
  tmux('send-keys', '-t', 'codex', 'Enter');
  await until('Codex to quit', () => tmux('has-session', '-t', 'codex').status !== 0);
  startCodex();
  await until('the next session', () => pane().includes(PROMPT_READY));
  // Codex 0.171.0 starts the session (and sends SessionStart) with its first prompt.
  tmux('send-keys', '-t', 'codex', '-l', 'hello');
  await sleep(300);
  tmux('send-keys', '-t', 'codex', 'Enter');
  const ended =
    finished === undefined
      ? undefined
      : await until(
          'the next session to end the last one\'s "finished"',
          async () => (await api(`/v1/notifications/${finished.id}`)).status === 'resolved' || undefined,
          10000,
        ).catch(() => false);
  if (finished !== undefined && ended !== true)
    problems.push('the next session left the last one\'s "finished" as it was');
  const payloads = recordedPayloads();
  if (recordTo !== undefined) writeFileSync(recordTo, `${JSON.stringify(payloads, null, 2)}\n`);

  const sorted = toDialog.map((each) => each.fromSeen).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`Codex ${versions.codex}, Node ${versions.node}, ${versions.tmux}`);
  console.log(`doctor before trusting: ${before}`);
  console.log(`doctor after "Trust all and continue": ${after}`);
  console.log(
    `request in Notify -> Codex's dialog on screen (--answer-wait=10): ${toDialog
      .map((each) => `${(each.fromSeen / 1000).toFixed(2)} s`)
      .join(', ')}; median ${(median / 1000).toFixed(2)} s` +
      ` (from the request's createdAt: ${toDialog.map((each) => `${(each.fromCreated / 1000).toFixed(2)} s`).join(', ')})`,
  );
  console.log(`Allow in Notify -> command ran, no dialog: ${(allowToRun / 1000).toFixed(2)} s`);
  console.log(`hook events Codex sent: ${Object.keys(payloads).sort().join(', ')}`);
  console.log(`the next session's start ended the last one's "finished": ${ended === true ? 'yes' : 'no'}`);
  if (!before.startsWith('warn') || !before.includes('not trusted yet'))
    problems.push('doctor did not warn about untrusted hooks before the review');
  if (!after.startsWith('ok')) problems.push('doctor still warned after "Trust all and continue"');
  if (sorted[0] < 8000 || sorted.at(-1) > 16000)
    problems.push('the dialog did not come about 10 s after the request');
  for (const problem of problems) console.log(`DIFFERS: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`observe-codex-tui: ${error.message}`);
    process.exit(1);
  },
);
