// Watches the real Claude Code, interactive in tmux, while Notify's installed PermissionRequest hook waits
// for the person's answer: is the terminal's dialog there too, what does answering in the terminal do to
// the hook, what does answering from Notify do to the dialog (docs/answers.md, "What Claude Code does while
// the hook waits"). Offline: Claude Code talks to a stand-in of the Anthropic Messages API served here,
// which answers a prompt `RUN: <command>` with a Bash tool call and the tool's result with a short text.
// Everything lives in a temp HOME: a real notifyd on a free port, `notifyctl hooks install claude`, a
// ~/.claude.json past onboarding. Prints what it saw, with versions; exit 0 when every scenario behaved as
// docs/answers.md says, 1 when one did not (its pane and the hook's log lines say how), 2 when it could not
// run. Takes about half a minute. Not part of `npm test`: it needs Claude Code and tmux, which CI does not
// have.
//
// Usage: npm run build && node scripts/observe-claude.mjs [--claude <path>] [--keep]
//   --claude  the claude binary (default: `claude` on PATH); for a scratch copy:
//             npm install --prefix /tmp/agents @anthropic-ai/claude-code
//             node scripts/observe-claude.mjs --claude /tmp/agents/node_modules/.bin/claude
//   --keep    keep the temp folder (HOME, Notify's log, pane captures) and print where it is
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { startStandIn } from './claude-stand-in.mjs';
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
/** How long a person takes to read the dialog before pressing a key. */
const PERSON_MS = 1500;
const API_KEY = 'sk-ant-api03-notify-observation-stand-in-key';

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const claudeAt = args.indexOf('--claude');
const claude = claudeAt >= 0 ? args[claudeAt + 1] : 'claude';

function cannotRun(message) {
  console.error(`observe-claude: ${message}`);
  process.exit(2);
}

function versionOf(program, flag) {
  const run = spawnSync(program, [flag], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

if (claude === undefined) cannotRun('--claude needs the path of the claude binary');
if (!existsSync(NOTIFYD) || !existsSync(HOOK)) cannotRun('run `npm run build` first');
const versions = {
  claude: versionOf(claude, '--version') ?? cannotRun(`no Claude Code at ${claude} (see --claude)`),
  node: process.version,
  tmux: versionOf('tmux', '-V') ?? cannotRun('tmux is not installed'),
};

const scratch = mkdtempSync(join(tmpdir(), 'notify-observe-claude-'));
const home = join(scratch, 'home');
const project = join(scratch, 'project');
const captures = join(scratch, 'panes');
for (const folder of [home, project, captures, join(home, '.config', 'notify')])
  mkdirSync(folder, { recursive: true });
const logDir = join(home, '.local', 'state', 'notify', 'logs');

const env = scratchEnv(home, { TERM: 'xterm-256color' });

function notifyctl(...words) {
  const run = spawnSync(process.execPath, [NOTIFYCTL, ...words], { env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`notifyctl ${words.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

/** notifyctl without blocking, so the pane can be watched while it answers. */
function notifyctlLater(...words) {
  const child = spawn(process.execPath, [NOTIFYCTL, ...words], { env, stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', resolve));
}

function tmux(...words) {
  return spawnSync('tmux', ['-S', join(scratch, 'tmux.socket'), ...words], { env, encoding: 'utf8' });
}

/** Whether the process still runs (a zombie, which nobody may reap here, does not). */
function running(pid) {
  if (!(pid > 0)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

const pane = () => tmux('capture-pane', '-p', '-t', 'claude').stdout;
const shown = (text) => text.split('\n').filter((line) => line.trim() !== '' && !/^[─╌]+$/.test(line.trim()));

/** Waits for `probe` to return something other than undefined. */
async function until(what, probe, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; the pane:\n${pane()}`);
    await sleep(50);
  }
}

/** The permission hook's own log lines, oldest first (hook-log.ts), without their timestamp. */
function hookLines() {
  if (!existsSync(logDir)) return [];
  return readdirSync(logDir)
    .sort()
    .flatMap((file) => readFileSync(join(logDir, file), 'utf8').split('\n'))
    .filter((line) => line.includes('hook claude PermissionRequest:'))
    .map((line) => line.replace(/^.*?hook claude PermissionRequest: /, ''));
}

async function main() {
  const standIn = await startStandIn();
  const broker = await startBroker(NOTIFYD, home, env);
  const brokerEnded = new Promise((resolve) => broker.child.once('exit', resolve));
  const cleanUp = async () => {
    const claudePid = Number(tmux('list-panes', '-t', 'claude', '-F', '#{pane_pid}').stdout.trim());
    tmux('kill-server');
    // Claude Code runs its SessionEnd hooks on its way out, and they write into the temp HOME.
    for (let waited = 0; running(claudePid) && waited < 5000; waited += 50) await sleep(50);
    broker.child.kill('SIGTERM');
    await brokerEnded;
    standIn.close();
    if (keep) console.log(`\nKept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  };
  // Ctrl+C must not leave Claude Code, tmux or notifyd behind.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    return await observe(standIn, broker);
  } finally {
    await cleanUp();
  }
}

async function observe(standIn, broker) {
  const api = async (method, path, body) => {
    const response = await globalThis.fetch(`${broker.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${broker.token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return response.json();
  };
  const installed = notifyctl('hooks', 'install', 'claude');
  // Past the first-run screens: onboarding, this folder's trust dialog, "use this API key?".
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: versions.claude.split(' ')[0],
      theme: 'dark',
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  );
  const claudeEnv = [
    `ANTHROPIC_BASE_URL=http://127.0.0.1:${standIn.address().port}`,
    `ANTHROPIC_API_KEY=${API_KEY}`,
    'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
    'DISABLE_AUTOUPDATER=1',
  ].flatMap((pair) => ['-e', pair]);
  // --permission-mode default: 2.1.332 starts in auto mode, where a classifier answers instead of the person.
  const started = tmux(
    ...['new-session', '-d', '-s', 'claude', '-x', '160', '-y', '50', '-c', project, ...claudeEnv],
    ...[claude, '--permission-mode', 'default'],
  );
  if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  await until('Claude Code to start', () => pane().includes('? for shortcuts'));

  const idle = async () => {
    await until(
      'Claude Code to finish its turn and every permission hook to end',
      async () => {
        const lines = hookLines();
        const asking = lines.filter((line) => line.startsWith('ask -> ')).length;
        const text = pane();
        return (
          lines.length === 2 * asking &&
          !text.includes('esc to interrupt') &&
          !text.includes('Do you want to proceed?') &&
          (text.includes('? for shortcuts') || text.includes('shift+tab to cycle'))
        );
      },
      30000,
    );
  };

  /** Sends `RUN: <command>` and waits for the hook's request and the terminal's dialog, both. */
  const ask = async (command) => {
    const seen = hookLines().length;
    tmux('send-keys', '-t', 'claude', '-l', `RUN: ${command}`);
    await until('the prompt in the input box', () => pane().includes(`RUN: ${command}`));
    tmux('send-keys', '-t', 'claude', 'Enter');
    const request = await until('the hook to raise the request', async () => {
      const active = await api('GET', '/v1/notifications?status=active&limit=10');
      return active.find((n) => n.actions !== undefined && n.message.split('\n')[1] === command);
    });
    const dialog = await until('the dialog', () => {
      const text = pane();
      return text.includes('Do you want to proceed?') ? text : undefined;
    });
    const lines = await until('the hook to log its request', () => {
      const since = hookLines().slice(seen);
      return since.length > 0 && since;
    });
    const now = await api('GET', `/v1/notifications/${request.id}`);
    const bothAtOnce = lines.length === 1 && now.status === 'active' && now.answer === undefined;
    const detail = bothAtOnce ? '' : ` (request ${now.status}, the hook's lines: ${lines.join(' | ')})`;
    return {
      request,
      dialog,
      seen,
      bothAtOnce: [`the dialog shows in the terminal while the hook waits${detail}`, bothAtOnce],
    };
  };

  /**
   * Picks the dialog's option by its label (their numbers differ between builds), as a person would: a
   * moment after the dialog appeared, since a key pressed at once only moves the selection; Enter confirms
   * a selection that the key only moved.
   */
  const choose = async (dialog, label) => {
    const option = new RegExp(`(\\d)\\. ${label}\\s*$`, 'm').exec(dialog);
    if (option === null) throw new Error(`no "${label}" option in the dialog:\n${dialog}`);
    await sleep(PERSON_MS);
    let pressed = Date.now();
    tmux('send-keys', '-t', 'claude', option[1]);
    await sleep(500);
    if (new RegExp(`❯ ${option[1]}\\. ${label}\\s*$`, 'm').test(pane())) {
      pressed = Date.now();
      tmux('send-keys', '-t', 'claude', 'Enter');
    }
    return pressed;
  };

  const closedWithin = async (id, from) => {
    const closed = await until('the request to close', async () => {
      const now = await api('GET', `/v1/notifications/${id}`);
      return now.status === 'active' ? undefined : now;
    });
    return { closed, ms: Date.parse(closed.updatedAt) - from };
  };

  const results = [];
  const scenario = async (name, run) => {
    const checks = [];
    const expect = (what, ok) => checks.push({ what, ok: Boolean(ok) });
    let notes = [];
    try {
      notes = (await run(expect)) ?? [];
    } catch (error) {
      checks.push({ what: error.message, ok: false });
    }
    const text = pane();
    writeFileSync(join(captures, `${results.length + 1}.txt`), text);
    results.push({ name, checks, notes, pane: shown(text).slice(-8) });
    await idle().catch((error) => checks.push({ what: error.message, ok: false }));
  };

  await scenario('Notify answers first: Allow', async (expect) => {
    const file = join(project, 'allowed-from-notify');
    const { request, dialog, bothAtOnce, seen } = await ask(`touch ${file}`);
    expect(...bothAtOnce);
    const asking = shown(dialog).slice(-12);
    const answering = notifyctlLater('answer', request.id, 'allow', '--revision', String(request.revision));
    const gone = await until(
      'the dialog to go',
      () => !pane().includes('Do you want to proceed?') && Date.now(),
    );
    await answering;
    await until('the tool to run', () => existsSync(file));
    const { answer } = await api('GET', `/v1/notifications/${request.id}`);
    const answeredAt = Date.parse(answer.answeredAt);
    const text = await until("the tool's line", () =>
      pane().includes('Allowed by PermissionRequest hook') ? pane() : undefined,
    ).catch(() => pane());
    expect(
      'the dialog goes away, the tool runs',
      existsSync(file) && !text.includes('Do you want to proceed?'),
    );
    expect(
      'Claude Code says "Allowed by PermissionRequest hook"',
      text.includes('Allowed by PermissionRequest hook'),
    );
    expect('the hook logs the answer', hookLines()[seen + 1] === 'answer allow from cli');
    return [
      `the pane while the hook waits:\n${asking.map((line) => `      ${line}`).join('\n')}`,
      `the answer recorded to the dialog gone from the pane: ${gone - answeredAt} ms, to the file made: ${Math.round(statSync(file).mtimeMs - answeredAt)} ms`,
    ];
  });

  await scenario('Notify answers first: Deny', async (expect) => {
    const file = join(project, 'denied-from-notify');
    const { request, bothAtOnce } = await ask(`touch ${file}`);
    expect(...bothAtOnce);
    notifyctl('answer', request.id, 'deny', '--revision', String(request.revision));
    const text = await until('the denial on screen', () =>
      pane().includes('Denied by PermissionRequest hook') ? pane() : undefined,
    );
    expect('the dialog goes away', !text.includes('Do you want to proceed?'));
    expect(
      'the reason names where: "Denied from the command line (notifyctl answer)"',
      text.includes('notifyctl answer'),
    );
    expect('the tool does not run', !existsSync(file));
  });

  await scenario('terminal answers first: Yes', async (expect) => {
    const file = join(project, 'yes-in-terminal');
    const { request, dialog, bothAtOnce, seen } = await ask(`touch ${file}`);
    expect(...bothAtOnce);
    const from = await choose(dialog, 'Yes');
    const { closed, ms } = await closedWithin(request.id, from);
    await until('the hook to end', () => hookLines().length > seen + 1);
    const way = hookLines()[seen + 1];
    expect('the tool runs', existsSync(file));
    expect(
      'the request is resolved without an answer',
      closed.status === 'resolved' && closed.answer === undefined,
    );
    expect(
      'no signal: the hook ends because the PostToolUse event resolved its request',
      way.startsWith('resolved without an answer'),
    );
    return [`key press to the request closed: ${ms} ms`, `the hook's way out: ${way}`];
  });

  for (const key of ['No', 'Escape']) {
    await scenario(`terminal answers first: ${key === 'No' ? 'No' : 'Esc'}`, async (expect) => {
      const file = join(project, `${key.toLowerCase()}-in-terminal`);
      const { request, dialog, bothAtOnce, seen } = await ask(`touch ${file}`);
      expect(...bothAtOnce);
      let from;
      if (key === 'No') from = await choose(dialog, 'No');
      else {
        await sleep(PERSON_MS);
        from = Date.now();
        tmux('send-keys', '-t', 'claude', 'Escape');
      }
      const { closed, ms } = await closedWithin(request.id, from);
      await until('the hook to end', () => hookLines().length > seen + 1);
      const way = hookLines()[seen + 1];
      expect('the tool does not run', !existsSync(file));
      expect(
        'the request is resolved without an answer',
        closed.status === 'resolved' && closed.answer === undefined,
      );
      expect(
        'Claude Code stops the hook with SIGTERM; it resolves its request on the way out',
        way.startsWith('SIGTERM while waiting'),
      );
      expect('within a second', ms < 1000);
      return [`key press to the request closed: ${ms} ms`, `the hook's way out: ${way}`];
    });
  }

  await scenario('terminal answers Yes to a long command, then Deny from Notify', async (expect) => {
    const file = join(project, 'long-command-done');
    const { request, dialog, seen } = await ask(`sleep 6; touch ${file}`);
    await choose(dialog, 'Yes');
    await until('the tool to start', () => !pane().includes('Do you want to proceed?'));
    await sleep(1500);
    const during = await api('GET', `/v1/notifications/${request.id}`);
    expect(
      'while the command runs, the request is still active with its buttons',
      during.status === 'active' && during.actions,
    );
    notifyctl('answer', request.id, 'deny', '--revision', String(request.revision));
    const answered = await api('GET', `/v1/notifications/${request.id}`);
    expect('Notify records the late Deny', answered.answer?.action === 'deny');
    await until('the command to finish', () => existsSync(file), 15000);
    expect("Claude Code ignores the hook's late decision: the command runs to its end", existsSync(file));
    return [`the hook's way out: ${hookLines()[seen + 1]}`];
  });

  /**
   * After an "always allow", what the session allows now: whether its mode line says accept-edits, and
   * whether an `rm` in the project folder still asks (it must: neither "always allow" grants that).
   */
  const allowedAfter = async (expect) => {
    const mode = shown(pane()).at(-1)?.trim();
    expect('the mode stays as it was (no "accept edits on")', !pane().includes('accept edits on'));
    const victim = join(project, `victim-${Date.now()}`);
    writeFileSync(victim, '');
    const next = await ask(`rm -f ${victim}`);
    expect('the next `rm` still asks', next.dialog.includes('Do you want to proceed?'));
    await choose(next.dialog, 'No');
    await until('the refusal', () => !pane().includes('Do you want to proceed?'));
    const local = join(project, '.claude', 'settings.local.json');
    const rules = existsSync(local) ? readFileSync(local, 'utf8').replace(/\s+/g, ' ') : '(none)';
    return [`the mode line after: ${mode}`, `.claude/settings.local.json after: ${rules}`];
  };

  await scenario('terminal answers first: its own "Yes, and always allow …"', async (expect) => {
    const file = join(project, 'always-allowed-in-terminal');
    const { dialog, bothAtOnce } = await ask(`touch ${file}`);
    expect(...bothAtOnce);
    const rule = /^\s*\d\. (Yes, and .*)$/m.exec(dialog)?.[1];
    await choose(dialog, 'Yes, and .*');
    await until('the tool to run', () => existsSync(file));
    await idle();
    return [`the dialog's own option: ${rule}`, ...(await allowedAfter(expect))];
  });

  await scenario('Notify answers first: Always allow', async (expect) => {
    const file = join(project, 'always-allowed-from-notify');
    const { request, dialog, bothAtOnce, seen } = await ask(`touch ${file}`);
    expect(...bothAtOnce);
    const offered = request.actions.map((action) => action.id).join(', ');
    expect('the request offers allow, deny and allow_always', offered === 'allow, deny, allow_always');
    notifyctl('answer', request.id, 'allow_always', '--revision', String(request.revision));
    const text = await until("the tool's line", () =>
      pane().includes('Allowed by PermissionRequest hook') && existsSync(file) ? pane() : undefined,
    );
    expect('the dialog goes away, the tool runs', !text.includes('Do you want to proceed?'));
    expect('the hook logs the answer', hookLines()[seen + 1] === 'answer allow_always from cli');
    await idle();
    const rule = /^\s*\d\. (Yes, and .*)$/m.exec(dialog)?.[1];
    const label = request.actions.find((action) => action.id === 'allow_always')?.label;
    return [
      `the dialog's own option: ${rule}`,
      `Notify's button: ${label}; the message's last line: ${request.message.split('\n').at(-1)}`,
      ...(await allowedAfter(expect)),
    ];
  });

  console.log(`# Claude Code and Notify's waiting permission hook\n`);
  console.log(`Claude Code ${versions.claude}, Node ${versions.node}, ${versions.tmux}, Notify ${root}`);
  console.log(`${installed.split('\n')[1]}\n`);
  let failed = 0;
  for (const result of results) {
    console.log(`## ${result.name}`);
    for (const check of result.checks) {
      console.log(`- ${check.ok ? 'as documented' : 'DIFFERS'}: ${check.what}`);
      if (!check.ok) failed++;
    }
    for (const note of result.notes) console.log(`- seen: ${note}`);
    console.log(`- the pane after:\n${result.pane.map((line) => `      ${line}`).join('\n')}\n`);
  }
  console.log(
    failed === 0 ? 'Every scenario behaved as documented.' : `${failed} observations differ from the docs.`,
  );
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`observe-claude: ${error.message}`);
    process.exit(2);
  },
);
