import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookTool } from '../../../domain/hooks/decision.js';
import { codexTrust, describeCodexTrust } from './codex-hook-trust.js';
import { survivingCommandLine } from './hook-command-line.js';

export type Scope = 'user' | 'project';

/** Where a tool reads its hooks and which events Notify listens to (docs/agents.md). */
export interface HookTarget {
  label: string;
  /** The settings file for a scope: user (home folder) or project (the current folder). */
  file(scope: Scope, env: NodeJS.ProcessEnv, cwd: string): string;
  events: readonly string[];
  /**
   * The hook entry that runs `command` for each event, as the tool's settings spell it. With
   * `answers`, PermissionRequest waits for the person's answer (claude and codex only).
   */
  entry(command: string, answers?: PermissionAnswers): (event: string) => Record<string, unknown>;
  /** Whether the tool's PermissionRequest hook can answer its prompt (docs/agents.md). */
  answers: boolean;
  /** The PermissionRequest timeout install writes by default when answers are on. */
  defaultPermissionTimeout: number;
  /** What the person still has to do for the tool to run the hooks. */
  nextStep: string;
  /**
   * For a tool that runs only the hook entries the person trusted (Codex): why it would skip some of
   * Notify's entries in `file`, with the fix, or undefined when it runs them all.
   */
  skipped?(file: string, env: NodeJS.ProcessEnv): string | undefined;
}

const home = (env: NodeJS.ProcessEnv) => env['HOME'] || homedir();

/** Permission answers as installed: the tool's timeout for its PermissionRequest hook. */
export interface PermissionAnswers {
  timeoutSeconds: number;
}

/**
 * Claude Code: ten minutes, long enough to fetch a coffee and answer from the desk, the tray or the
 * phone. Its own dialog stays open all along, so the wait costs nothing to a person at the terminal.
 */
const CLAUDE_PERMISSION_TIMEOUT_SECONDS = 600;
/**
 * Codex: its TUI shows only "Running hooks" while the PermissionRequest hook runs, and its own
 * approval dialog only once the hook returns, so a long wait takes the terminal away from the person
 * sitting at it. The hook waits 10 s (a glance at the toast), then hands the decision back.
 */
const CODEX_PERMISSION_TIMEOUT_SECONDS = 20;
export const MIN_PERMISSION_TIMEOUT_SECONDS = 30;
export const MAX_PERMISSION_TIMEOUT_SECONDS = 3600;
/**
 * The hook stops waiting this long before the tool would stop it: time for its start, for reading
 * the payload (1 s at most) and for taking the buttons off the request (0.5 s).
 */
export const ANSWER_MARGIN_SECONDS = 10;

/** The PermissionRequest entry that waits for an answer, or undefined for every other event. */
function answeringEntry(
  command: string,
  event: string,
  answers: PermissionAnswers | undefined,
): Record<string, unknown> | undefined {
  if (answers === undefined || event !== 'PermissionRequest') return undefined;
  const wait = answers.timeoutSeconds - ANSWER_MARGIN_SECONDS;
  return { type: 'command', command: `${command} --answer-wait=${wait}`, timeout: answers.timeoutSeconds };
}

/** Claude Code and Codex take the timeout in seconds, Gemini CLI in milliseconds. */
const TIMEOUT_SECONDS = 5;
/**
 * Codex 0.169.0 caps the hooks of these events at 3 s and warns about a longer timeout at every
 * start, so they get its cap.
 */
const CODEX_CAPPED_EVENTS = new Set(['Interrupt', 'SessionEnd']);
const CODEX_CAP_SECONDS = 3;

export const HOOK_TARGETS: Readonly<Record<HookTool, HookTarget>> = {
  claude: {
    label: 'Claude Code',
    file: (scope, env, cwd) => join(scope === 'user' ? home(env) : cwd, '.claude', 'settings.json'),
    events: [
      'Notification',
      'PermissionRequest',
      'Stop',
      'StopFailure',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionDenied',
      'Elicitation',
      'ElicitationResult',
      'SessionStart',
      'SessionEnd',
    ],
    entry: (command, answers) => (event) =>
      answeringEntry(command, event, answers) ?? {
        type: 'command',
        command: survivingCommandLine(command),
        timeout: TIMEOUT_SECONDS,
      },
    answers: true,
    defaultPermissionTimeout: CLAUDE_PERMISSION_TIMEOUT_SECONDS,
    nextStep: 'Claude Code reads the hooks at the start of its next session.',
  },
  codex: {
    label: 'Codex',
    file: (scope, env, cwd) =>
      scope === 'user'
        ? join(env['CODEX_HOME'] || join(home(env), '.codex'), 'hooks.json')
        : join(cwd, '.codex', 'hooks.json'),
    events: [
      'PermissionRequest',
      'Stop',
      'UserPromptSubmit',
      'PostToolUse',
      'Interrupt',
      'SessionStart',
      'SessionEnd',
    ],
    entry: (command, answers) => (event) =>
      answeringEntry(command, event, answers) ?? {
        type: 'command',
        command: survivingCommandLine(command),
        timeout: CODEX_CAPPED_EVENTS.has(event) ? CODEX_CAP_SECONDS : TIMEOUT_SECONDS,
      },
    answers: true,
    defaultPermissionTimeout: CODEX_PERMISSION_TIMEOUT_SECONDS,
    skipped: (file, env) =>
      describeCodexTrust(
        codexTrust(file, join(env['CODEX_HOME'] || join(home(env), '.codex'), 'config.toml')),
      ),
    nextStep:
      'Codex asks you to review new or changed hooks when it starts ("Hooks need review"; or open /hooks) and runs them only once you trust them; `codex exec` skips untrusted hooks without a word. Every install that changes an entry needs that review again.',
  },
  gemini: {
    label: 'Gemini CLI',
    file: (scope, env, cwd) => join(scope === 'user' ? home(env) : cwd, '.gemini', 'settings.json'),
    events: ['Notification', 'AfterAgent', 'BeforeAgent', 'AfterTool', 'SessionStart', 'SessionEnd'],
    entry: (command) => () => ({
      name: 'notify',
      type: 'command',
      command: survivingCommandLine(command),
      timeout: TIMEOUT_SECONDS * 1000,
    }),
    answers: false,
    defaultPermissionTimeout: 0,
    nextStep: 'Gemini CLI reads the hooks at the start of its next session.',
  },
};
