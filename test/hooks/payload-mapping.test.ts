import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sessionKey, toArcEnvelope } from '../../src/domain/hooks/arc-event.js';
import { readClaudePayload } from '../../src/domain/hooks/claude.js';
import { readCodexNotifyArgument, readCodexPayload } from '../../src/domain/hooks/codex.js';
import type { HookDecision, HookTool } from '../../src/domain/hooks/decision.js';
import { readGeminiPayload } from '../../src/domain/hooks/gemini.js';
import { fixtureFile, fixtures } from './support.js';

type Expected =
  | { raise: 'question' | 'permission' | 'completion' | 'failure'; title: string; message: string }
  | 'resolve'
  /** Resolves what asks for the person; a finished or failed turn stays (SessionEnd of a run nobody ended). */
  | 'resolve-asking'
  /** Ends the outcomes earlier sessions of the same tool left in the project (SessionStart). */
  | 'start'
  | 'ignore';

const CLAUDE: Record<string, Expected> = {
  'Notification.permission_prompt': {
    raise: 'permission',
    title: 'Claude Code needs your permission',
    message: 'Claude needs your permission to use Bash',
  },
  'Notification.idle_prompt': {
    raise: 'question',
    title: 'Claude Code needs your input',
    message: 'Claude is waiting for your input',
  },
  'Notification.agent_needs_input': {
    raise: 'question',
    title: 'Claude Code needs your input',
    message: 'A background agent needs your input',
  },
  'Notification.elicitation_dialog': {
    raise: 'question',
    title: 'Claude Code needs your input',
    message: 'Claude Code needs your input for deploy-server',
  },
  'Notification.agent_completed': {
    raise: 'completion',
    title: 'Claude Code finished',
    message: 'Background agent finished',
  },
  'Notification.untyped_permission': {
    raise: 'permission',
    title: 'Claude Code needs your permission',
    message: 'Claude needs your permission to use Write',
  },
  'Notification.untyped_input': {
    raise: 'question',
    title: 'Claude Code needs your input',
    message: 'Claude is waiting for your input',
  },
  'Notification.untyped_other': 'ignore',
  'Notification.auth_success': 'ignore',
  'Notification.future_type': 'ignore',
  PermissionRequest: {
    raise: 'permission',
    title: 'Claude Code needs your permission',
    message: 'Claude Code wants to use Bash.',
  },
  Elicitation: { raise: 'question', title: 'Claude Code needs your input', message: 'Which environment?' },
  PreToolUse: 'resolve',
  PostToolUse: 'resolve',
  PostToolUseFailure: 'resolve',
  PermissionDenied: 'resolve',
  ElicitationResult: 'resolve',
  Stop: { raise: 'completion', title: 'Claude Code finished', message: 'Claude Code finished its turn.' },
  StopFailure: {
    raise: 'failure',
    title: 'Claude Code stopped on an error',
    message: 'The turn ended with an error (rate_limit).',
  },
  UserPromptSubmit: 'resolve',
  SessionEnd: 'resolve',
  SessionStart: 'start',
  SubagentStop: 'ignore',
  PreCompact: 'ignore',
};

const CODEX: Record<string, Expected> = {
  PermissionRequest: {
    raise: 'permission',
    title: 'Codex needs your approval',
    message: 'Codex wants to use Bash.',
  },
  PreToolUse: 'resolve',
  PostToolUse: 'resolve',
  Stop: { raise: 'completion', title: 'Codex finished', message: 'Codex finished its turn.' },
  UserPromptSubmit: 'resolve',
  SessionStart: 'start',
  'notify.agent-turn-complete': {
    raise: 'completion',
    title: 'Codex finished',
    message: 'Codex finished its turn.',
  },
  'notify.unknown-type': 'ignore',
};

const GEMINI: Record<string, Expected> = {
  'Notification.ToolPermission': {
    raise: 'permission',
    title: 'Gemini CLI needs your permission',
    message: 'Tool run_shell_command requires editing',
  },
  'Notification.other': 'ignore',
  BeforeTool: 'resolve',
  AfterTool: 'resolve',
  AfterAgent: { raise: 'completion', title: 'Gemini CLI finished', message: 'Gemini CLI finished its turn.' },
  BeforeAgent: 'resolve',
  SessionEnd: 'resolve',
  SessionStart: 'start',
  BeforeModel: 'ignore',
};

const TABLES: Record<HookTool, Record<string, Expected>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI };

const SESSIONS: Record<HookTool, string> = {
  claude: '3f2b6c1e-8d4a-4f7b-9c21-5e0a7d9b1c44',
  codex: '019a7c3e-5d1f-7a20-b3c4-9e8f7a6b5c4d',
  gemini: 'b7e1c2d3-4f5a-6b7c-8d9e-0f1a2b3c4d5e',
};

const SENDERS: Record<HookTool, { id: string; name: string }> = {
  claude: { id: 'claude-code', name: 'Claude Code' },
  codex: { id: 'codex', name: 'Codex' },
  gemini: { id: 'gemini-cli', name: 'Gemini CLI' },
};

function read(tool: HookTool, name: string, payload: unknown): HookDecision {
  if (tool === 'claude') return readClaudePayload(payload);
  if (tool === 'gemini') return readGeminiPayload(payload);
  return name.startsWith('notify.') ? readCodexNotifyArgument(payload) : readCodexPayload(payload);
}

function envelopeOf(tool: HookTool, decision: HookDecision) {
  return toArcEnvelope({
    tool,
    decision: { ...decision, session: decision.session! },
    project: 'api',
    eventId: 'event-1',
    occurredAt: new Date('2026-11-23T15:40:00.000Z'),
    longSessionDigest: () => 'digest',
  });
}

const verb = (expected: Expected) =>
  expected === 'resolve-asking'
    ? 'resolves what asks for the person, keeping an outcome'
    : expected === 'start'
      ? "ends earlier sessions' outcomes in the project"
      : typeof expected === 'string'
        ? `${expected}s`
        : `raises ${expected.raise}`;

/** The payload read and turned into the ARC event the expectation names (or none, when ignored). */
function assertMapping(tool: HookTool, name: string, payload: unknown, expected: Expected): void {
  const decision = read(tool, name, payload);
  assert.equal(decision.session, SESSIONS[tool]);
  assert.equal(decision.cwd, '/home/ada/api');
  const envelope = envelopeOf(tool, decision);
  assert.equal(decision.todo.action === 'start', expected === 'start', 'ends earlier outcomes');
  if (expected === 'ignore' || expected === 'start') return assert.equal(envelope, undefined);
  const common = {
    arc_version: '0.1',
    event_id: 'event-1',
    occurred_at: '2026-11-23T15:40:00.000Z',
    sender: { ...SENDERS[tool], instance_id: SESSIONS[tool] },
    context: { session_id: SESSIONS[tool], project: 'api', cwd: '/home/ada/api' },
  };
  const key = `${SENDERS[tool].id}:${SESSIONS[tool]}`;
  const keepsOutcome = decision.todo.action === 'resolve' && decision.todo.keepOutcome === true;
  assert.equal(keepsOutcome, expected === 'resolve-asking', 'keeps a finished or failed turn');
  assert.deepEqual(
    envelope,
    expected === 'resolve' || expected === 'resolve-asking'
      ? { ...common, event_type: 'request.resolved', request: { key } }
      : {
          ...common,
          event_type: 'request.created',
          request: { key, kind: expected.raise, title: expected.title, message: expected.message },
        },
  );
}

for (const tool of ['claude', 'codex', 'gemini'] as const) {
  describe(`${tool} hook payloads → ARC events`, () => {
    const recorded = fixtures(tool);

    it('has a recorded payload for every row of the table and a row for every recorded payload', () => {
      assert.deepEqual(Object.keys(recorded).sort(), Object.keys(TABLES[tool]).sort());
    });

    for (const [name, expected] of Object.entries(TABLES[tool])) {
      it(`${name} ${verb(expected)}`, () => assertMapping(tool, name, recorded[name], expected));
    }

    it('never carries a prompt, a transcript or tool input or output into an event', () => {
      for (const [name, payload] of Object.entries(recorded)) {
        const decision = read(tool, name, payload);
        const sent = JSON.stringify(envelopeOf(tool, decision) ?? {});
        assert.doesNotMatch(sent, /PROMPT-|TRANSCRIPT-|TOOL-OUTPUT-|TOOL-INPUT-|SECRET/, name);
      }
    });
  });
}

describe("docs/agents.md's Claude Code mapping table", () => {
  it('has a fixture row for every hook event and notification_type it names', () => {
    const named = claudeTableNames(readFileSync(new URL('../../../docs/agents.md', import.meta.url), 'utf8'));
    assert.ok(
      named.includes('Notification.permission_prompt') && named.includes('Stop'),
      'the table is read',
    );
    assert.deepEqual(
      named.filter((name) => !(name in CLAUDE) && !(name in CLAUDE_CODE_2_1_332)),
      [],
      'a row of the table without a fixture row in CLAUDE or CLAUDE_CODE_2_1_332',
    );
  });
});

/**
 * `Notification.<type>` for each backticked notification_type of the Claude Code table's Notification
 * rows, and the name of every other hook event its first column lists.
 */
function claudeTableNames(markdown: string): string[] {
  const section = markdown.split('### Claude Code')[1]!.split('\n### ')[0]!;
  const names: string[] = [];
  for (const line of section.split('\n').filter((row) => /^\| [A-Z]/.test(row))) {
    const [events = '', types = ''] = line.split('|').slice(1, 3);
    if (events.trim() === 'Notification') {
      for (const [, type] of types.matchAll(/`([a-z_]+)`/g)) {
        if (type !== 'notification_type') names.push(`Notification.${type}`);
      }
    } else if (events.trim() !== 'Hook event') {
      names.push(...(events.match(/\b[A-Z][A-Za-z]+\b/g) ?? []));
    }
  }
  return names;
}

describe('hook payloads that are not what the tools document', () => {
  it('reads any non-object as a nameless event and does nothing with it', () => {
    for (const payload of [null, [], 'Stop', 42, {}]) {
      const decision = readClaudePayload(payload);
      assert.deepEqual(decision, { event: '(unnamed)', todo: { action: 'ignore' } });
    }
  });

  it('ignores fields of the wrong type instead of failing', () => {
    const decision = readClaudePayload({ hook_event_name: 'Stop', session_id: 7, cwd: ['x'] });
    assert.equal(decision.session, undefined);
    assert.equal(decision.cwd, undefined);
    assert.equal(decision.todo.action, 'raise');
  });

  it('keeps a free-text event name out of the log label', () => {
    assert.equal(readClaudePayload({ hook_event_name: 'rm -rf / please' }).event, '(unnamed)');
  });

  it('keys a session whose id does not fit in 100 characters by its digest', () => {
    const long = 'x'.repeat(150);
    assert.equal(
      sessionKey('claude', long, () => 'd'.repeat(40)),
      `claude-code:${'d'.repeat(40)}`,
    );
    assert.equal(
      sessionKey('codex', 'abc', () => 'unused'),
      'codex:abc',
    );
  });

  it('cuts a tool message longer than 4000 characters', () => {
    const decision = readClaudePayload({
      hook_event_name: 'Notification',
      notification_type: 'idle_prompt',
      session_id: 's',
      message: 'a'.repeat(5000),
    });
    const envelope = envelopeOf('claude', decision)!;
    assert.equal(Array.from(envelope.request.message!).length, 4000);
  });
});

// Shapes checked against named tool versions (issue 18): one fixture file per tool version, one row per
// event, notification type and prompt source. Claude Code 2.1.332: live, interactive and `claude -p`,
// against a stand-in API (PermissionRequest, PostToolUse, Stop with and without background tasks,
// StopFailure, SessionEnd, UserPromptSubmit, which carried no `source` in either mode, and the task
// notification), the binary's notification list and the messages it builds, and the hook input types
// of @anthropic-ai/claude-agent-sdk 0.3.332. Codex 0.169.0: live in `codex exec` against a stand-in
// Responses API (Stop, UserPromptSubmit, SessionEnd) and the hook input JSON Schemas in its binary.

const NEEDS_INPUT = 'Claude Code needs your input';
const NEEDS_PERMISSION = 'Claude Code needs your permission';

const CLAUDE_CODE_2_1_332: Record<string, Expected> = {
  'Notification.worker_permission_prompt': {
    raise: 'permission',
    title: NEEDS_PERMISSION,
    message: 'researcher needs permission for Bash',
  },
  'Notification.worker_permission_prompt.network': {
    raise: 'permission',
    title: NEEDS_PERMISSION,
    message: 'researcher needs network access to registry.npmjs.org',
  },
  'Notification.elicitation_url_dialog': { raise: 'question', title: NEEDS_INPUT, message: NEEDS_INPUT },
  'Notification.quota_auto_resume_stale': {
    raise: 'question',
    title: NEEDS_INPUT,
    message: 'Usage limit reset — press enter to continue',
  },
  'Notification.quota_auto_resume_disabled': {
    raise: 'question',
    title: NEEDS_INPUT,
    message: 'Automatic continue was turned off — the task will not resume on its own',
  },
  'Notification.quota_auto_resume_fired': 'resolve',
  'Notification.elicitation_response': 'resolve',
  'Notification.elicitation_complete': 'resolve',
  'Notification.push_notification': 'ignore',
  'Notification.computer_use_enter': 'ignore',
  'Notification.computer_use_exit': 'ignore',
  'Notification.model_refusal_fallback': 'ignore',
  'Notification.auth_storage_failure': 'ignore',
  'Notification.plugin_notification': 'ignore',
  'UserPromptSubmit.no_source': 'resolve',
  'UserPromptSubmit.user': 'resolve',
  'UserPromptSubmit.sdk': 'ignore',
  'UserPromptSubmit.system': 'ignore',
  'UserPromptSubmit.loop_wakeup': 'ignore',
  'UserPromptSubmit.schedule_wakeup': 'ignore',
  'UserPromptSubmit.poll_event': 'ignore',
  'UserPromptSubmit.task_notification': 'ignore',
  Stop: { raise: 'completion', title: 'Claude Code finished', message: 'Claude Code finished its turn.' },
  'Stop.background_tasks': {
    raise: 'completion',
    title: 'Claude Code paused',
    message: 'Claude Code ended its turn; 1 background task is still running.',
  },
  'Stop.two_background_tasks': {
    raise: 'completion',
    title: 'Claude Code paused',
    message: 'Claude Code ended its turn; 2 background tasks are still running.',
  },
  StopFailure: {
    raise: 'failure',
    title: 'Claude Code stopped on an error',
    message: 'The turn ended with an error (unknown).',
  },
  SessionEnd: 'resolve-asking',
  'SessionEnd.prompt_input_exit': 'resolve',
  PermissionRequest: {
    raise: 'permission',
    title: NEEDS_PERMISSION,
    message: 'Claude Code wants to use Bash.',
  },
  'PermissionRequest.npm_test': {
    raise: 'permission',
    title: NEEDS_PERMISSION,
    message: 'Claude Code wants to use Bash.',
  },
  'PermissionRequest.curl': {
    raise: 'permission',
    title: NEEDS_PERMISSION,
    message: 'Claude Code wants to use Bash.',
  },
  PostToolUse: 'resolve',
  'Elicitation.url': { raise: 'question', title: NEEDS_INPUT, message: 'Sign in to the deploy service' },
  ElicitationResult: 'resolve',
  PermissionDenied: 'resolve',
};

const CODEX_0_169_0: Record<string, Expected> = {
  Interrupt: 'resolve',
  SessionEnd: 'resolve-asking',
  PermissionRequest: {
    raise: 'permission',
    title: 'Codex needs your approval',
    message: 'Codex wants to use Bash.',
  },
  Stop: { raise: 'completion', title: 'Codex finished', message: 'Codex finished its turn.' },
  UserPromptSubmit: 'resolve',
  SubagentStop: 'ignore',
  PreCompact: 'ignore',
};

// Codex 0.171.0, live in its TUI against a stand-in of the Responses API (scripts/observe-codex-tui.mjs
// --record): every event it sent for a session with an approval; its SessionEnd comes about a minute
// after /quit, from its app-server, and was not recorded.
const CODEX_0_171_0: Record<string, Expected> = {
  SessionStart: 'start',
  UserPromptSubmit: 'resolve',
  PreToolUse: 'resolve',
  PermissionRequest: {
    raise: 'permission',
    title: 'Codex needs your approval',
    message: 'Codex wants to use Bash.',
  },
  PostToolUse: 'resolve',
  Stop: { raise: 'completion', title: 'Codex finished', message: 'Codex finished its turn.' },
};

const CHECKED_VERSIONS: { tool: HookTool; version: string; file: string; table: Record<string, Expected> }[] =
  [
    {
      tool: 'claude',
      version: 'Claude Code 2.1.332',
      file: 'claude-code-2.1.332',
      table: CLAUDE_CODE_2_1_332,
    },
    { tool: 'codex', version: 'Codex 0.169.0', file: 'codex-0.169.0', table: CODEX_0_169_0 },
    { tool: 'codex', version: 'Codex 0.171.0', file: 'codex-0.171.0', table: CODEX_0_171_0 },
  ];

for (const { tool, version, file, table } of CHECKED_VERSIONS) {
  describe(`${version} hook payloads → ARC events`, () => {
    const recorded = fixtureFile(file);

    it(`has a ${version} payload for every row of the table and a row for every payload`, () => {
      assert.deepEqual(Object.keys(recorded).sort(), Object.keys(table).sort());
    });

    for (const [name, expected] of Object.entries(table)) {
      it(`${name} (${version}) ${verb(expected)}`, () => assertMapping(tool, name, recorded[name], expected));
    }

    it(`never carries a prompt, a transcript, tool input or a URL of ${version} into an event`, () => {
      for (const [name, payload] of Object.entries(recorded)) {
        const sent = JSON.stringify(envelopeOf(tool, read(tool, name, payload)) ?? {});
        assert.doesNotMatch(
          sent,
          /PROMPT-|TRANSCRIPT-|TOOL-OUTPUT-|TOOL-INPUT-|SECRET|task-notification/,
          name,
        );
      }
    });
  });
}
