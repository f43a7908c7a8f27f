import type { HookTool } from './decision.js';

/**
 * Whether the session runs with nobody at its terminal (`claude -p`, an Agent SDK host), read from the
 * environment the tool gives its hooks. Claude Code 2.1.332 sets `CLAUDE_CODE_SESSION_ATTENDED` to `0`
 * under `claude -p` and to `1` in its interactive terminal (seen live), and `CLAUDE_CODE_ENTRYPOINT`
 * to `sdk-cli` (`sdk-ts`, `sdk-py` for the SDKs) or `cli`; builds without the first are read from the
 * second. Codex and Gemini CLI need no such test: `codex exec` runs with approvals off (no
 * PermissionRequest), and Gemini CLI's hooks cannot answer.
 */
export function isHeadless(tool: HookTool, env: NodeJS.ProcessEnv): boolean {
  if (tool !== 'claude') return false;
  const attended = env['CLAUDE_CODE_SESSION_ATTENDED'];
  if (attended === '0') return true;
  if (attended === '1') return false;
  return env['CLAUDE_CODE_ENTRYPOINT']?.startsWith('sdk') ?? false;
}

/** The most a headless run may wait for an answer (`NOTIFY_HEADLESS_ANSWER_WAIT`), as any answer wait. */
const MAX_HEADLESS_WAIT_SECONDS = 3600;

/**
 * How long a permission request of a headless run waits for an answer from Notify: only as long as the
 * person who started the run said, in seconds, with `NOTIFY_HEADLESS_ANSWER_WAIT` in its environment;
 * undefined (not at all) without it or with anything but a whole number from 1 to 3600.
 */
export function headlessAnswerWait(env: NodeJS.ProcessEnv): number | undefined {
  const text = env['NOTIFY_HEADLESS_ANSWER_WAIT']?.trim() ?? '';
  if (!/^[0-9]{1,4}$/.test(text)) return undefined;
  const seconds = Number(text);
  return seconds >= 1 && seconds <= MAX_HEADLESS_WAIT_SECONDS ? seconds : undefined;
}
