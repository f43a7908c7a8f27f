import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv } from 'ajv';
import type { NotificationDto } from '../../src/client/api-types.js';
import type { HookTool } from '../../src/domain/hooks/decision.js';
import { freePort, useBroker } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';
import { runNode } from '../support/run-node.js';
import { fixtureFile, HOOK, NOTIFYCTL, runHook } from './support.js';

const broker = useBroker();

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;
const CODEX = fixtureFile('codex-0.169.0')['PermissionRequest']!;
/** Codex 0.169.0's own JSON Schema of a PermissionRequest hook's output, as its binary embeds it. */
const CODEX_OUTPUT_SCHEMA = JSON.parse(
  readFileSync(
    new URL(
      '../../../test/fixtures/hooks/codex-0.169.0-permission-request.command.output.schema.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as object;

const KEY_PREFIX: Record<'claude' | 'codex', string> = { claude: 'claude-code', codex: 'codex' };

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Waiting {
  pid: number;
  finished: Promise<Finished>;
  kill(signal: NodeJS.Signals): void;
}

/** The installed permission hook as the tool starts it: payload on stdin, `--answer-wait` from install. */
function startHook(
  tool: HookTool,
  payload: Record<string, unknown>,
  waitSeconds: number,
  env: NodeJS.ProcessEnv = broker.home.env,
): Waiting {
  return started(
    spawn(process.execPath, [HOOK, tool, `--answer-wait=${waitSeconds}`], { env, stdio: 'pipe' }),
    payload,
  );
}

function started(child: ChildProcessWithoutNullStreams, payload: Record<string, unknown>): Waiting {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify(payload));
  const finished = new Promise<Finished>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid!, finished, kill: (signal) => child.kill(signal) };
}

async function latest(key: string): Promise<NotificationDto | undefined> {
  const response = await broker.request('GET', `/v1/notifications?key=${encodeURIComponent(key)}&limit=1`);
  const [first] = (await response.json()) as NotificationDto[];
  return first;
}

/** The request the hook raised, once it carries its choices. */
function asked(tool: 'claude' | 'codex', session: string): Promise<NotificationDto> {
  const key = `${KEY_PREFIX[tool]}:${session}`;
  return waitFor(async () => {
    const found = await latest(key);
    return found?.status === 'active' && found.actions !== undefined ? found : undefined;
  }, `the permission request of ${key}`);
}

async function answer(id: string, action: string, surface?: string): Promise<void> {
  const response = await broker.request('POST', `/v1/notifications/${id}/answer`, {
    action,
    ...(surface !== undefined && { surface }),
  });
  assert.equal(response.status, 200, await response.text());
}

const quiet = { code: 0, signal: null, stdout: '', stderr: '' };

describe('permission answers: the hook waits for the person and answers the tool', () => {
  it('asks Claude Code permission requests with what will run and the three choices', async () => {
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-ask' }, 30);
    const request = await asked('claude', 'pa-ask');
    assert.equal(request.type, 'permission_required');
    assert.equal(request.priority, 'high');
    assert.equal(request.agent, 'claude-code');
    assert.equal(request.agentInstance, 'pa-ask');
    assert.equal(request.cwd, '/home/ada/api');
    assert.equal(request.title, 'Claude Code needs your permission');
    assert.equal(
      request.message,
      'Claude Code wants to run this command:\nTOOL-INPUT-touch made-by-claude.txt\n\n' +
        '"Always allow" allows access to /home/ada/api in this session.',
    );
    assert.deepEqual(request.actions, [
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'Deny' },
      { id: 'allow_always', label: 'Always allow (see below)' },
    ]);
    await answer(request.id, 'allow');
    const finished = await hook.finished;
    assert.deepEqual(
      { ...finished, stdout: JSON.parse(finished.stdout) as unknown },
      {
        ...quiet,
        stdout: {
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
        },
      },
    );
    assert.equal(finished.stdout.endsWith('\n'), false);
  });

  it("runs as hooks install wrote it: the tool's shell runs the command and reads the decision", async () => {
    const installed = await runNode(NOTIFYCTL, ['hooks', 'install', 'claude'], { env: broker.home.env });
    assert.equal(installed.code, 0, installed.stderr);
    const settings = JSON.parse(readFileSync(`${broker.home.home}/.claude/settings.json`, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]>;
    };
    const [entry] = settings.hooks['PermissionRequest']![0]!.hooks;
    assert.equal(entry!.timeout, 600);
    const hook = started(spawn('/bin/sh', ['-c', entry!.command], { env: broker.home.env, stdio: 'pipe' }), {
      ...CLAUDE,
      session_id: 'pa-installed',
    });
    await answer((await asked('claude', 'pa-installed')).id, 'allow');
    const finished = await hook.finished;
    assert.deepEqual(JSON.parse(finished.stdout), {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
  });

  it('refreshes the session condition in place, and a later event of the session resolves it', async () => {
    const stop = { ...fixtureFile('claude-code-2.1.332')['Stop']!, session_id: 'pa-key' };
    assert.deepEqual(await runHook(['claude'], JSON.stringify(stop), broker.home.env).then(codeAndOutput), {
      code: 0,
      stdout: '',
    });
    const finished = (await latest('claude-code:pa-key'))!;
    assert.equal(finished.type, 'completed');
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-key' }, 30);
    const request = await asked('claude', 'pa-key');
    assert.equal(request.id, finished.id, 'the same condition, refreshed in place');
    const posted = { ...fixtureFile('claude-code-2.1.332')['PostToolUse']!, session_id: 'pa-key' };
    await runHook(['claude'], JSON.stringify(posted), broker.home.env);
    assert.deepEqual(await hook.finished, quiet, 'resolved without an answer: the dialog decides');
    assert.equal((await latest('claude-code:pa-key'))!.status, 'resolved');
  });

  it("keeps the request as asked when Claude Code's permission_prompt notification comes 6 s in", async () => {
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-prompt' }, 30);
    const request = await asked('claude', 'pa-prompt');
    const notice: Record<string, unknown> = {
      ...fixtureFile('claude')['Notification.permission_prompt']!,
      session_id: 'pa-prompt',
    };
    const noticed = await runHook(['claude'], JSON.stringify(notice), broker.home.env);
    assert.deepEqual(codeAndOutput(noticed), { code: 0, stdout: '' });
    const kept = (await latest('claude-code:pa-prompt'))!;
    assert.deepEqual(
      { id: kept.id, message: kept.message, actions: kept.actions, updatedAt: kept.updatedAt },
      { id: request.id, message: request.message, actions: request.actions, updatedAt: request.updatedAt },
    );
    await answer(request.id, 'allow');
    assert.equal(JSON.parse((await hook.finished).stdout).hookSpecificOutput.decision.behavior, 'allow');
    const after = await runHook(['claude'], JSON.stringify(notice), broker.home.env);
    assert.equal(after.code, 0);
    const next = (await latest('claude-code:pa-prompt'))!;
    assert.notEqual(next.id, request.id, 'once answered, a permission notice raises as always');
    assert.equal(next.message, notice['message']);
  });

  it('gives an answer only to the hook whose command the person saw', async () => {
    const other = (session: string) => ({
      ...CLAUDE,
      session_id: session,
      tool_input: { command: 'TOOL-INPUT-rm -rf build' },
    });
    const first = startHook('claude', { ...CLAUDE, session_id: 'pa-two' }, 30);
    const asked1 = await asked('claude', 'pa-two');
    const second = startHook('claude', other('pa-two'), 30);
    const replaced = await waitFor(async () => {
      const now = await latest('claude-code:pa-two');
      return now?.message.includes('rm -rf build') ? now : undefined;
    }, 'the second request');
    assert.equal(replaced.id, asked1.id, 'one condition per session, refreshed in place');
    await answer(replaced.id, 'allow');
    assert.deepEqual(await first.finished, quiet, 'the person never saw the first command');
    assert.equal(JSON.parse((await second.finished).stdout).hookSpecificOutput.decision.behavior, 'allow');

    const stopped = startHook('claude', { ...CLAUDE, session_id: 'pa-two-stop' }, 30);
    await asked('claude', 'pa-two-stop');
    const waiting = startHook('claude', other('pa-two-stop'), 30);
    await waitFor(
      async () => (await latest('claude-code:pa-two-stop'))?.message.includes('rm -rf build'),
      'the second request',
    );
    stopped.kill('SIGTERM');
    assert.deepEqual(await stopped.finished, quiet);
    const still = (await latest('claude-code:pa-two-stop'))!;
    assert.equal(still.status, 'active', "the first hook's stop leaves the second's request open");
    await answer(still.id, 'deny');
    assert.equal(JSON.parse((await waiting.finished).stdout).hookSpecificOutput.decision.behavior, 'deny');
  });

  it('denies with a message naming where the person denied', async () => {
    for (const [surface, message] of [
      [undefined, 'Denied from the command line (notifyctl answer)'],
      ['web', "Denied from Notify's web page"],
      ['relay', 'Denied from the phone (Notify relay)'],
    ] as const) {
      const session = `pa-deny-${surface ?? 'cli'}`;
      const hook = startHook('claude', { ...CLAUDE, session_id: session }, 30);
      await answer((await asked('claude', session)).id, 'deny', surface);
      const finished = await hook.finished;
      assert.deepEqual(JSON.parse(finished.stdout), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message } },
      });
      assert.equal(finished.code, 0);
    }
  });

  it("'Always allow' grants only the folder the terminal's option grants, never the switch to accept-edits mode", async () => {
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-always' }, 30);
    const request = await asked('claude', 'pa-always');
    assert.deepEqual(request.actions!.at(-1), { id: 'allow_always', label: 'Always allow (see below)' });
    assert.equal(
      request.message,
      'Claude Code wants to run this command:\nTOOL-INPUT-touch made-by-claude.txt\n\n' +
        '"Always allow" allows access to /home/ada/api in this session.',
    );
    await answer(request.id, 'allow_always');
    const finished = await hook.finished;
    assert.deepEqual(JSON.parse(finished.stdout), {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedPermissions: [
            { type: 'addDirectories', directories: ['/home/ada/api'], destination: 'session' },
          ],
        },
      },
    });
  });

  it("says on the 'Always allow' button which rule it adds, and adds exactly that rule", async () => {
    const npmTest = fixtureFile('claude-code-2.1.332')['PermissionRequest.npm_test']!;
    const hook = startHook('claude', { ...npmTest, session_id: 'pa-always-rule' }, 30);
    const request = await asked('claude', 'pa-always-rule');
    assert.equal(request.message, 'Claude Code wants to run this command:\nTOOL-INPUT-npm test');
    assert.deepEqual(request.actions!.at(-1), {
      id: 'allow_always',
      label: 'Always allow npm test * in this project',
    });
    await answer(request.id, 'allow_always');
    const finished = await hook.finished;
    assert.deepEqual(JSON.parse(finished.stdout), {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedPermissions: npmTest['permission_suggestions'] },
      },
    });
  });

  it('ends the message with the rule when it is too long for the button', async () => {
    const curl = fixtureFile('claude-code-2.1.332')['PermissionRequest.curl']!;
    const hook = startHook('claude', { ...curl, session_id: 'pa-always-long' }, 30);
    const request = await asked('claude', 'pa-always-long');
    assert.equal(
      request.message,
      'Claude Code wants to run this command:\nTOOL-INPUT-curl -s http://example.com\n\n' +
        '"Always allow" allows `TOOL-INPUT-curl -s http://example.com` in this project.',
    );
    assert.deepEqual(request.actions!.at(-1), { id: 'allow_always', label: 'Always allow (see below)' });
    await answer(request.id, 'deny');
    assert.equal((await hook.finished).code, 0);
  });

  it('offers no "Always allow" when all Claude Code suggests is a mode change', async () => {
    const payload = {
      ...CLAUDE,
      session_id: 'pa-mode-only',
      permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    };
    const hook = startHook('claude', payload, 30);
    const request = await asked('claude', 'pa-mode-only');
    assert.deepEqual(
      request.actions!.map((action) => action.id),
      ['allow', 'deny'],
    );
    await answer(request.id, 'allow');
    assert.equal((await hook.finished).code, 0);
  });

  it('offers no "Always allow" when Claude Code suggests nothing', async () => {
    const payload: Record<string, unknown> = { ...CLAUDE, session_id: 'pa-nosuggest' };
    delete payload['permission_suggestions'];
    const hook = startHook('claude', payload, 30);
    const request = await asked('claude', 'pa-nosuggest');
    assert.deepEqual(
      request.actions!.map((action) => action.id),
      ['allow', 'deny'],
    );
    await answer(request.id, 'allow');
    assert.equal((await hook.finished).code, 0);
  });

  it("answers Codex with output its own schema accepts, and never offers 'Always allow'", async () => {
    const validate = new Ajv({ strict: false }).compile(CODEX_OUTPUT_SCHEMA);
    for (const action of ['allow', 'deny']) {
      const session = `pa-codex-${action}`;
      const hook = startHook('codex', { ...CODEX, session_id: session }, 30);
      const request = await asked('codex', session);
      assert.equal(request.title, 'Codex needs your approval');
      assert.equal(request.message, 'Codex wants to run this command:\nTOOL-INPUT-git push --force');
      assert.deepEqual(
        request.actions!.map((each) => each.id),
        ['allow', 'deny'],
      );
      await answer(request.id, action);
      const finished = await hook.finished;
      const output = JSON.parse(finished.stdout) as unknown;
      assert.ok(validate(output), JSON.stringify(validate.errors));
      assert.equal(
        (output as { hookSpecificOutput: { decision: { behavior: string } } }).hookSpecificOutput.decision
          .behavior,
        action,
      );
    }
    assert.equal(
      validate({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'allow', updatedPermissions: [] },
        },
      }),
      true,
      'the schema admits the field; Codex fails closed on it, so the hook never sends it',
    );
  });

  it('prints nothing when its deadline passes, and takes the buttons off the request', async () => {
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-deadline' }, 2);
    const request = await asked('claude', 'pa-deadline');
    assert.deepEqual(await hook.finished, quiet);
    const left = (await latest('claude-code:pa-deadline'))!;
    assert.equal(left.id, request.id);
    assert.equal(left.status, 'active');
    assert.equal(left.actions, undefined);
    assert.equal(
      left.message,
      'Claude Code wants to run this command:\nTOOL-INPUT-touch made-by-claude.txt\n\nAnswer in the terminal.',
    );
  });

  /** What Claude Code 2.1.332 gives its hooks under `claude -p` (seen live). */
  const headless = () => ({
    ...broker.home.env,
    CLAUDE_CODE_SESSION_ATTENDED: '0',
    CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
  });

  it('does not keep a headless run (claude -p) waiting for a person, and asks nothing', async () => {
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-headless' }, 590, headless());
    const ended = await Promise.race([hook.finished, sleep(10_000).then(() => 'still waiting' as const)]);
    if (ended === 'still waiting') hook.kill('SIGKILL');
    assert.deepEqual(ended, quiet, 'the hook returns at once, and the run decides by itself');
    assert.equal(await latest('claude-code:pa-headless'), undefined, 'nobody is asked');
  });

  it('lets a headless run wait as long as NOTIFY_HEADLESS_ANSWER_WAIT says, then resolves its request', async () => {
    const env = { ...headless(), NOTIFY_HEADLESS_ANSWER_WAIT: '3' };
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-headless-wait' }, 590, env);
    const request = await asked('claude', 'pa-headless-wait');
    const ended = await Promise.race([hook.finished, sleep(10_000).then(() => 'still waiting' as const)]);
    if (ended === 'still waiting') hook.kill('SIGKILL');
    assert.deepEqual(ended, quiet);
    const left = (await latest('claude-code:pa-headless-wait'))!;
    assert.equal(left.id, request.id);
    assert.equal(left.status, 'resolved', 'nobody is left asked to answer in a terminal nobody watches');

    const answered = startHook('claude', { ...CLAUDE, session_id: 'pa-headless-answer' }, 590, {
      ...headless(),
      NOTIFY_HEADLESS_ANSWER_WAIT: '60',
    });
    await answer((await asked('claude', 'pa-headless-answer')).id, 'allow');
    assert.equal(JSON.parse((await answered.finished).stdout).hookSpecificOutput.decision.behavior, 'allow');
  });

  it('still waits in an interactive session (CLAUDE_CODE_SESSION_ATTENDED=1, entrypoint cli)', async () => {
    const env = { ...broker.home.env, CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' };
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-attended' }, 590, env);
    await answer((await asked('claude', 'pa-attended')).id, 'deny');
    assert.equal(JSON.parse((await hook.finished).stdout).hookSpecificOutput.decision.behavior, 'deny');
  });

  it('prints nothing when the broker is down', async () => {
    const port = await freePort();
    const env = { ...broker.home.env, NOTIFY_PORT: String(port), NOTIFY_TOKEN: 'x' };
    const hook = startHook('claude', { ...CLAUDE, session_id: 'pa-down' }, 30, env);
    assert.deepEqual(await hook.finished, quiet);
  });

  it('prints nothing when the request is dismissed', async () => {
    const hook = startHook('codex', { ...CODEX, session_id: 'pa-dismiss' }, 30);
    const request = await asked('codex', 'pa-dismiss');
    const response = await broker.request('POST', `/v1/notifications/${request.id}/dismiss`);
    assert.equal(response.status, 200);
    assert.deepEqual(await hook.finished, quiet);
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`resolves the request and prints nothing on ${signal} while waiting (answered in the terminal)`, async () => {
      const session = `pa-${signal}`;
      const hook = startHook('claude', { ...CLAUDE, session_id: session }, 30);
      const request = await asked('claude', session);
      hook.kill(signal);
      assert.deepEqual(await hook.finished, quiet);
      const closed = (await latest(`claude-code:${session}`))!;
      assert.equal(closed.id, request.id);
      assert.equal(closed.status, 'resolved');
      assert.equal(closed.answer, undefined);
    });
  }

  it("resolves the request when the terminal's No or Esc stops the installed hook's whole process group", async () => {
    // As Claude Code 2.1.332 does (docs/answers.md, scripts/observe-claude.mjs): settings.json's command
    // runs under /bin/sh in a process group of its own, and No or Esc in its dialog sends SIGTERM to the
    // shell and the adapter at once. The shell dies there; the adapter alone must close the request.
    const command = `${process.execPath} ${HOOK} claude --answer-wait=590`;
    const group = spawn('/bin/sh', ['-c', command], { env: broker.home.env, stdio: 'pipe', detached: true });
    const hook = started(group, { ...CLAUDE, session_id: 'pa-group' });
    const request = await asked('claude', 'pa-group');
    process.kill(-group.pid!, 'SIGTERM');
    // 'close' comes once the adapter, which holds the pipes after the shell died, has exited too.
    assert.deepEqual(await hook.finished, { ...quiet, code: null, signal: 'SIGTERM' });
    const closed = (await latest('claude-code:pa-group'))!;
    assert.equal(closed.id, request.id);
    assert.equal(closed.status, 'resolved');
    assert.equal(closed.answer, undefined);
  });

  it('logs each step without the command, the token or the session', () => {
    const [file] = readdirSync(broker.home.logDir).filter((name) => /^notify-\d{8}\.log$/.test(name));
    const text = readFileSync(join(broker.home.logDir, file!), 'utf8');
    const lines = text.split('\n').filter((line) => line.includes(' hook '));
    for (const step of [
      /\[INFO\] hook claude PermissionRequest: ask -> notification \S+, waiting for the answer$/,
      /\[INFO\] hook claude PermissionRequest: answer allow from cli$/,
      /\[INFO\] hook codex PermissionRequest: answer deny from cli$/,
      /\[INFO\] hook claude PermissionRequest: no answer by the hook's deadline; the tool's dialog decides; the request stays without its buttons$/,
      /\[WARN\] hook claude PermissionRequest: ask -> broker unreachable on port \d+ \(BrokerUnreachableError\)$/,
      /\[INFO\] hook codex PermissionRequest: dismissed without an answer; the tool's dialog decides$/,
      /\[INFO\] hook claude PermissionRequest: SIGTERM while waiting \(answered in the terminal\); resolved it$/,
      /\[INFO\] hook claude PermissionRequest: the answer was to another request of the session; the tool's dialog decides$/,
      /\[INFO\] hook claude PermissionRequest: SIGTERM while waiting \(answered in the terminal\); left it: it no longer asks what this hook asked$/,
      /\[INFO\] hook claude Notification: raise permission -> left as it is: the request with answers is waiting$/,
    ])
      assert.ok(
        lines.some((line) => step.test(line)),
        `${step}\n${lines.join('\n')}`,
      );
    assert.ok(!text.includes(broker.token));
    assert.doesNotMatch(text, /TOOL-INPUT-|PROMPT-|pa-ask|made-by-claude/);
  });
});

function codeAndOutput(result: { code: number | null; stdout: string }) {
  return { code: result.code, stdout: result.stdout };
}
