// Watches the real `claude -p` with Notify's installed hooks (docs/agents.md, "Headless runs"): does every
// StopFailure reach Notify although Claude Code stops the hook's process group right after starting it;
// does a permission prompt keep the run waiting for a person; is the run's "finished" still there a minute
// after its SessionEnd. Offline: Claude Code talks to a stand-in of the Anthropic Messages API served here
// (claude-stand-in.mjs). Everything lives in a temp HOME with a real notifyd on a free port. Prints what it
// saw with versions; exit 0 when everything behaved as documented, 1 when something did not, 2 when it
// could not run. Not part of `npm test`: it needs Claude Code.
//
// Usage: npm run build && node scripts/observe-claude-headless.mjs --claude <path> [--runs 30] [--keep]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';
import { startStandIn } from './claude-stand-in.mjs';
import { scratchEnv, startBroker } from './observe-broker.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const NOTIFYD = join(root, 'dist/src/cli/notifyd.js');
const NOTIFYCTL = join(root, 'dist/src/cli/notifyctl/main.js');
const API_KEY = 'sk-ant-api03-notify-observation-stand-in-key';
/** How long the run's "finished" must stay after the run ended (issue 31: a minute). */
const STAYS_MS = 60_000;

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const claude = option('--claude', 'claude');
const runs = Number(option('--runs', '30'));
const keep = args.includes('--keep');

function cannotRun(message) {
  console.error(`observe-claude-headless: ${message}`);
  process.exit(2);
}

const version = spawnSync(claude, ['--version'], { encoding: 'utf8' });
if (version.status !== 0) cannotRun(`no Claude Code at ${claude} (see --claude)`);
if (!existsSync(NOTIFYD)) cannotRun('run `npm run build` first');

const scratch = mkdtempSync(join(tmpdir(), 'notify-observe-headless-'));
const home = join(scratch, 'home');
const project = join(scratch, 'project');
for (const folder of [home, project, join(home, '.config', 'notify')]) mkdirSync(folder, { recursive: true });
const env = scratchEnv(home);

/** One `claude -p` run against `standIn`; resolves with its session id (from its JSON output) and time. */
async function claudeP(standIn, prompt, extra = []) {
  const started = Date.now();
  const run = spawn(
    claude,
    ['-p', '--output-format', 'json', '--permission-mode', 'default', ...extra, prompt],
    {
      cwd: project,
      env: {
        ...env,
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${standIn.address().port}`,
        ANTHROPIC_API_KEY: API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  run.stdout.on('data', (chunk) => (output += chunk));
  await new Promise((resolve) => run.once('close', resolve));
  let session;
  try {
    session = JSON.parse(output).session_id;
  } catch {
    session = undefined;
  }
  return { session, ms: Date.now() - started };
}

async function main() {
  const broker = await startBroker(NOTIFYD, home, env);
  const api = async (path, init = {}) => {
    const response = await globalThis.fetch(`${broker.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${broker.token}`, 'content-type': 'application/json' },
    });
    return response.json();
  };
  const ofSession = async (session) =>
    (await api(`/v1/notifications?limit=10&key=${encodeURIComponent(`claude-code:${session}`)}`))[0];
  const installed = spawnSync(process.execPath, [NOTIFYCTL, 'hooks', 'install', 'claude'], { env });
  if (installed.status !== 0) throw new Error(`hooks install: ${installed.stderr}`);
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: version.stdout.trim().split(' ')[0],
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  );
  const checks = [];
  const expect = (what, ok, seen) => checks.push({ what, ok: Boolean(ok), seen });
  try {
    const failing = await startStandIn({ failing: true });
    let received = 0;
    const sessions = [];
    for (let run = 0; run < runs; run++) sessions.push((await claudeP(failing, `hello ${run}`)).session);
    failing.close();
    // The hook may still be on its way once `claude -p` is gone: give each a few seconds at most.
    for (const session of sessions) {
      for (let waited = 0; waited < 5000; waited += 100) {
        if ((await ofSession(session))?.type === 'error') break;
        await sleep(100);
      }
      if ((await ofSession(session))?.type === 'error') received++;
    }
    expect(`every StopFailure reaches Notify`, received === runs, `${received} of ${runs}`);

    const working = await startStandIn();
    const asked = await claudeP(working, `RUN: touch ${join(project, 'headless-permission')}`);
    const request = await ofSession(asked.session);
    expect(
      'a permission prompt of `claude -p` does not wait for a person',
      asked.ms < 30_000 && !existsSync(join(project, 'headless-permission')),
      `the run took ${asked.ms} ms; the session's condition after it: ${request?.type ?? 'none'}, ${request?.status ?? ''}`,
    );
    const done = await claudeP(working, 'hello');
    await sleep(STAYS_MS);
    const finished = await ofSession(done.session);
    expect(
      "the run's finished is still there a minute after its SessionEnd",
      finished?.type === 'completed' && finished.status === 'active',
      `${finished?.title ?? 'nothing'}: ${finished?.status ?? ''}`,
    );
    working.close();
  } finally {
    broker.child.kill('SIGTERM');
    if (keep) console.log(`Kept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
  console.log(
    `# claude -p with Notify's hooks\n\nClaude Code ${version.stdout.trim()}, Node ${process.version}\n`,
  );
  for (const check of checks)
    console.log(`- ${check.ok ? 'as documented' : 'DIFFERS'}: ${check.what} (seen: ${check.seen})`);
  return checks.every((check) => check.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`observe-claude-headless: ${error.message}`);
    process.exit(2);
  },
);
