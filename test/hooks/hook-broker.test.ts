import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HookTool } from '../../src/domain/hooks/decision.js';
import type { NotificationDto } from '../../src/client/api-types.js';
import { useBroker } from '../support/broker-process.js';
import { fixtureFile, fixtures, NOTIFYCTL, runHook } from './support.js';

const broker = useBroker();

/** A recorded payload for a session of the test's own, so tests do not share conditions. */
function payload(
  tool: HookTool,
  name: string,
  session: string,
  cwd = broker.home.home,
  recordings = fixtures(tool),
): string {
  const recorded = { ...recordings[name]! };
  if (name.startsWith('notify.')) Object.assign(recorded, { 'thread-id': session, cwd });
  else Object.assign(recorded, { session_id: session, cwd });
  return JSON.stringify(recorded);
}

async function hook(
  tool: HookTool,
  name: string,
  session: string,
  cwd?: string,
  recordings?: Record<string, Record<string, unknown>>,
): Promise<void> {
  const body = payload(tool, name, session, cwd, recordings);
  const result = name.startsWith('notify.')
    ? await runHook([tool, body], undefined, broker.home.env)
    : await runHook([tool], body, broker.home.env);
  assert.deepEqual(
    { code: result.code, stdout: result.stdout, stderr: result.stderr },
    { code: 0, stdout: '', stderr: '' },
  );
}

async function conditions(key: string): Promise<NotificationDto[]> {
  const response = await broker.request('GET', '/v1/notifications?limit=500');
  const all = (await response.json()) as NotificationDto[];
  return all.filter((notification) => notification.key === key).reverse();
}

const summary = (list: NotificationDto[]) => list.map((each) => `${each.type}:${each.status}`);

describe('hook adapters against a real broker', () => {
  it('raises one permission condition per Claude Code session and resolves it when a tool runs', async () => {
    await hook('claude', 'Notification.permission_prompt', 'c-perm');
    await hook('claude', 'PermissionRequest', 'c-perm');
    let list = await conditions('claude-code:c-perm');
    assert.deepEqual(summary(list), ['permission_required:active']);
    const [first] = list;
    assert.equal(first!.agent, 'claude-code');
    assert.equal(first!.agentInstance, 'c-perm');
    assert.equal(first!.priority, 'high');
    assert.equal(first!.title, 'Claude Code needs your permission');
    assert.equal(first!.message, 'Claude Code wants to use Bash.');
    assert.equal(first!.cwd, broker.home.home);
    const arc = (first!.metadata as { arc: Record<string, unknown> }).arc;
    assert.equal(arc['arc_version'], '0.1');
    assert.equal(arc['event_type'], 'request.created');
    assert.deepEqual(arc['sender'], { name: 'Claude Code' });
    assert.deepEqual(arc['context'], { session_id: 'c-perm' });
    assert.deepEqual(arc['request'], { kind: 'permission' });
    await hook('claude', 'PostToolUse', 'c-perm');
    list = await conditions('claude-code:c-perm');
    assert.deepEqual(summary(list), ['permission_required:resolved']);
  });

  it('shows a finished Claude Code turn until the next prompt, then a failed one as a new condition', async () => {
    await hook('claude', 'Stop', 'c-turn');
    assert.deepEqual(summary(await conditions('claude-code:c-turn')), ['completed:active']);
    await hook('claude', 'Notification.idle_prompt', 'c-turn');
    const refreshed = await conditions('claude-code:c-turn');
    assert.deepEqual(summary(refreshed), ['input_required:active']);
    assert.equal(refreshed[0]!.message, 'Claude is waiting for your input');
    await hook('claude', 'UserPromptSubmit', 'c-turn');
    await hook('claude', 'StopFailure', 'c-turn');
    assert.deepEqual(summary(await conditions('claude-code:c-turn')), [
      'input_required:resolved',
      'error:active',
    ]);
    await hook('claude', 'SessionEnd', 'c-turn');
    assert.deepEqual(summary(await conditions('claude-code:c-turn')), [
      'input_required:resolved',
      'error:resolved',
    ]);
  });

  it('resolves what a Claude Code session left open when auto mode denies a call', async () => {
    await hook('claude', 'PermissionRequest', 'c-deny');
    await hook('claude', 'PermissionDenied', 'c-deny');
    assert.deepEqual(summary(await conditions('claude-code:c-deny')), ['permission_required:resolved']);
  });

  it('keeps two sessions of the same tool apart', async () => {
    await hook('claude', 'Stop', 'c-one');
    await hook('claude', 'Stop', 'c-two');
    await hook('claude', 'UserPromptSubmit', 'c-one');
    assert.deepEqual(summary(await conditions('claude-code:c-one')), ['completed:resolved']);
    assert.deepEqual(summary(await conditions('claude-code:c-two')), ['completed:active']);
  });

  it('creates nothing for events that ask nothing of the person', async () => {
    for (const name of [
      'SessionStart',
      'SubagentStop',
      'PreCompact',
      'Notification.auth_success',
      'Notification.future_type',
    ]) {
      await hook('claude', name, 'c-quiet');
    }
    await hook('claude', 'UserPromptSubmit', 'c-quiet');
    assert.deepEqual(await conditions('claude-code:c-quiet'), []);
  });

  it('follows a Codex session through approval, turn end and the next prompt', async () => {
    await hook('codex', 'PermissionRequest', 'x-flow');
    const [approval] = await conditions('codex:x-flow');
    assert.equal(approval!.type, 'permission_required');
    assert.equal(approval!.message, 'Codex wants to use Bash.');
    await hook('codex', 'PostToolUse', 'x-flow');
    await hook('codex', 'Stop', 'x-flow');
    await hook('codex', 'SessionStart', 'x-flow');
    assert.deepEqual(summary(await conditions('codex:x-flow')), [
      'permission_required:resolved',
      'completed:active',
    ]);
    await hook('codex', 'UserPromptSubmit', 'x-flow');
    assert.deepEqual(summary(await conditions('codex:x-flow')), [
      'permission_required:resolved',
      'completed:resolved',
    ]);
  });

  it("reads Codex's legacy notify argument as a finished turn on the thread's key", async () => {
    await hook('codex', 'notify.agent-turn-complete', 'x-legacy');
    await hook('codex', 'notify.unknown-type', 'x-legacy');
    const list = await conditions('codex:x-legacy');
    assert.deepEqual(summary(list), ['completed:active']);
    assert.equal(list[0]!.agentInstance, 'x-legacy');
  });

  it('follows a Gemini CLI session through a tool permission, the turn end and the next prompt', async () => {
    await hook('gemini', 'Notification.ToolPermission', 'g-flow');
    await hook('gemini', 'Notification.other', 'g-flow');
    const [permission] = await conditions('gemini-cli:g-flow');
    assert.equal(permission!.type, 'permission_required');
    assert.equal(permission!.message, 'Tool run_shell_command requires editing');
    await hook('gemini', 'AfterTool', 'g-flow');
    await hook('gemini', 'AfterAgent', 'g-flow');
    assert.deepEqual(summary(await conditions('gemini-cli:g-flow')), [
      'permission_required:resolved',
      'completed:active',
    ]);
    await hook('gemini', 'BeforeAgent', 'g-flow');
    await hook('gemini', 'AfterAgent', 'g-flow');
    await hook('gemini', 'SessionEnd', 'g-flow');
    assert.deepEqual(summary(await conditions('gemini-cli:g-flow')), [
      'permission_required:resolved',
      'completed:resolved',
      'completed:resolved',
    ]);
  });

  it("names the project after the git root of the agent's folder", async () => {
    const repo = join(broker.home.home, 'shop-api');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    await hook('claude', 'Stop', 'c-project', join(repo, 'src', 'deep'));
    const [condition] = await conditions('claude-code:c-project');
    assert.equal(condition!.project, 'shop-api');
    assert.equal(condition!.cwd, join(repo, 'src', 'deep'));
  });

  it('keys a session id too long for a key by its digest, the same for every event of the session', async () => {
    const session = `long-${'s'.repeat(150)}`;
    await hook('claude', 'Stop', session);
    const response = await broker.request('GET', '/v1/notifications?agent=claude-code&unresolved=true');
    const [condition] = ((await response.json()) as NotificationDto[]).filter((each) =>
      /^claude-code:[0-9a-f]{40}$/.test(each.key ?? ''),
    );
    assert.equal(condition!.agentInstance, condition!.key!.slice('claude-code:'.length));
    await hook('claude', 'UserPromptSubmit', session);
    assert.deepEqual(summary(await conditions(condition!.key!)), ['completed:resolved']);
  });

  it('runs the same adapter through notifyctl hook', async () => {
    const result = await runHook(
      ['hook', 'claude'],
      payload('claude', 'Stop', 'c-notifyctl'),
      broker.home.env,
      NOTIFYCTL,
    );
    assert.deepEqual(
      { code: result.code, stdout: result.stdout, stderr: result.stderr },
      { code: 0, stdout: '', stderr: '' },
    );
    assert.deepEqual(summary(await conditions('claude-code:c-notifyctl')), ['completed:active']);
  });

  it("leaves one line per hook in Notify's daily log, without the token or payload text", async () => {
    await hook('claude', 'UserPromptSubmit', 'c-log');
    await hook('claude', 'PermissionRequest', 'c-log');
    const [file] = readdirSync(broker.home.logDir).filter((name) => /^notify-\d{8}\.log$/.test(name));
    const lines = readFileSync(join(broker.home.logDir, file!), 'utf8').split('\n');
    const hookLines = lines.filter((line) => line.includes('hook claude'));
    assert.ok(
      hookLines.some((line) =>
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[INFO\] hook claude UserPromptSubmit: resolve -> 404 Not Found \(nothing was open\)$/.test(
          line,
        ),
      ),
      hookLines.join('\n'),
    );
    assert.ok(
      hookLines.some((line) =>
        /\[INFO\] hook claude PermissionRequest: raise permission -> 201 Created$/.test(line),
      ),
    );
    const text = lines.join('\n');
    assert.ok(!text.includes(broker.token));
    assert.doesNotMatch(text, /PROMPT-|TRANSCRIPT-|TOOL-OUTPUT-|SECRET|c-log/);
  });
});

describe('hook adapters against a real broker, with the shapes of Claude Code 2.1.332 and Codex 0.169.0', () => {
  const claude = fixtureFile('claude-code-2.1.332');
  const codex = fixtureFile('codex-0.169.0');
  const claudeHook = (name: string, session: string) => hook('claude', name, session, undefined, claude);
  const codexHook = (name: string, session: string) => hook('codex', name, session, undefined, codex);

  it('keeps "Claude Code finished" through a /loop wake-up and a task report; the person\'s prompt clears it', async () => {
    await claudeHook('Stop', 'c-loop');
    for (const name of [
      'UserPromptSubmit.loop_wakeup',
      'UserPromptSubmit.schedule_wakeup',
      'UserPromptSubmit.system',
      'UserPromptSubmit.task_notification',
    ]) {
      await claudeHook(name, 'c-loop');
    }
    assert.deepEqual(summary(await conditions('claude-code:c-loop')), ['completed:active']);
    await claudeHook('UserPromptSubmit.user', 'c-loop');
    assert.deepEqual(summary(await conditions('claude-code:c-loop')), ['completed:resolved']);
  });

  it('shows a turn that left background work running as paused, then as finished in place', async () => {
    await claudeHook('Stop.background_tasks', 'c-bg');
    let list = await conditions('claude-code:c-bg');
    assert.deepEqual(summary(list), ['completed:active']);
    assert.equal(list[0]!.title, 'Claude Code paused');
    assert.equal(list[0]!.message, 'Claude Code ended its turn; 1 background task is still running.');
    await claudeHook('Stop', 'c-bg');
    list = await conditions('claude-code:c-bg');
    assert.deepEqual(summary(list), ['completed:active']);
    assert.equal(list[0]!.title, 'Claude Code finished');
  });

  it("raises a worker's permission prompt and a URL elicitation, and resolves it once the URL flow completes", async () => {
    await claudeHook('Notification.worker_permission_prompt', 'c-worker');
    const list = await conditions('claude-code:c-worker');
    assert.deepEqual(summary(list), ['permission_required:active']);
    assert.equal(list[0]!.message, 'researcher needs permission for Bash');
    await claudeHook('Notification.elicitation_url_dialog', 'c-worker');
    assert.deepEqual(summary(await conditions('claude-code:c-worker')), ['input_required:active']);
    await claudeHook('Notification.elicitation_complete', 'c-worker');
    assert.deepEqual(summary(await conditions('claude-code:c-worker')), ['input_required:resolved']);
  });

  it('keeps a failure after a headless end (reason other); the person ending the session at the terminal ends it', async () => {
    await claudeHook('StopFailure', 'c-fail');
    const [failure] = await conditions('claude-code:c-fail');
    assert.equal(failure!.message, 'The turn ended with an error (unknown).');
    await claudeHook('SessionEnd', 'c-fail');
    assert.deepEqual(summary(await conditions('claude-code:c-fail')), ['error:active']);
    await claudeHook('SessionEnd.prompt_input_exit', 'c-fail');
    assert.deepEqual(summary(await conditions('claude-code:c-fail')), ['error:resolved']);
  });

  it("keeps a headless run's 'finished' after its SessionEnd, but ends a permission nobody can answer any more", async () => {
    await claudeHook('Stop', 'c-headless');
    await claudeHook('SessionEnd', 'c-headless');
    assert.deepEqual(summary(await conditions('claude-code:c-headless')), ['completed:active']);
    await claudeHook('PermissionRequest', 'c-headless-ask');
    await claudeHook('SessionEnd', 'c-headless-ask');
    assert.deepEqual(summary(await conditions('claude-code:c-headless-ask')), [
      'permission_required:resolved',
    ]);
  });

  it("ends what headless runs left in a project when the project's next session starts, and nothing else", async () => {
    // Two checkouts named `api` (one project name, two repositories) and a folder inside the first.
    const root = join(broker.home.home, 'start');
    const api = join(root, 'work', 'api');
    const otherApi = join(root, 'fork', 'api');
    for (const folder of [join(api, '.git'), join(api, 'src'), join(otherApi, '.git')])
      mkdirSync(folder, { recursive: true });
    const at = (name: string, session: string, cwd: string, tool: HookTool = 'claude') =>
      hook(tool, name, session, cwd, tool === 'claude' ? claude : codex);
    await at('Stop', 's-run-1', api);
    await at('SessionEnd', 's-run-1', api);
    await at('StopFailure', 's-run-2', join(api, 'src'));
    await at('SessionEnd', 's-run-2', join(api, 'src'));
    await at('Stop', 's-fork', otherApi);
    await at('SessionEnd', 's-fork', otherApi);
    await at('PermissionRequest', 's-asking', api);
    await at('Stop', 'x-run', api, 'codex');
    await at('SessionEnd', 'x-run', api, 'codex');
    assert.deepEqual(summary(await conditions('claude-code:s-run-1')), ['completed:active']);

    await hook('claude', 'SessionStart', 's-next', join(api, 'src'));
    assert.deepEqual(summary(await conditions('claude-code:s-run-1')), ['completed:resolved']);
    assert.deepEqual(summary(await conditions('claude-code:s-run-2')), ['error:resolved']);
    assert.deepEqual(summary(await conditions('claude-code:s-fork')), ['completed:active']);
    assert.deepEqual(summary(await conditions('claude-code:s-asking')), ['permission_required:active']);
    assert.deepEqual(summary(await conditions('codex:x-run')), ['completed:active']);

    await hook('codex', 'SessionStart', 'x-next', api, fixtureFile('codex-0.171.0'));
    assert.deepEqual(summary(await conditions('codex:x-run')), ['completed:resolved']);

    // A session's own outcome is its own: a start within it (after a compaction) leaves it.
    await at('Stop', 's-next', api);
    await hook('claude', 'SessionStart', 's-next', api);
    assert.deepEqual(summary(await conditions('claude-code:s-next')), ['completed:active']);
  });

  it("follows a Codex 0.171.0 session from its start to its finish, which the project's next session ends", async () => {
    const codex171 = fixtureFile('codex-0.171.0');
    const project = join(broker.home.home, 'codex-171');
    mkdirSync(join(project, '.git'), { recursive: true });
    const at = (name: string, session: string) => hook('codex', name, session, project, codex171);
    for (const name of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest'])
      await at(name, 'x-171');
    const [asking] = await conditions('codex:x-171');
    assert.equal(asking!.type, 'permission_required');
    assert.equal(asking!.title, 'Codex needs your approval');
    await at('PostToolUse', 'x-171');
    await at('Stop', 'x-171');
    assert.deepEqual(summary(await conditions('codex:x-171')), [
      'permission_required:resolved',
      'completed:active',
    ]);
    await at('SessionStart', 'x-171-next');
    assert.deepEqual(summary(await conditions('codex:x-171')), [
      'permission_required:resolved',
      'completed:resolved',
    ]);
  });

  it('keeps "Codex finished" when the session ends, and resolves an approval when it ends or the person interrupts', async () => {
    await codexHook('Stop', 'x-end');
    await codexHook('SessionEnd', 'x-end');
    assert.deepEqual(summary(await conditions('codex:x-end')), ['completed:active']);
    await codexHook('PermissionRequest', 'x-end-ask');
    await codexHook('SessionEnd', 'x-end-ask');
    assert.deepEqual(summary(await conditions('codex:x-end-ask')), ['permission_required:resolved']);
    await codexHook('PermissionRequest', 'x-interrupt');
    await codexHook('Interrupt', 'x-interrupt');
    assert.deepEqual(summary(await conditions('codex:x-interrupt')), ['permission_required:resolved']);
  });
});
