import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HookTool } from './decision.js';
import { headlessAnswerWait, isHeadless } from './headless.js';

// The hook tests run the bundled adapter; these read the sources' rules themselves.
describe('a headless run and how long its permission requests wait', () => {
  it('is headless by CLAUDE_CODE_SESSION_ATTENDED, else by an SDK entrypoint, and only for Claude Code', () => {
    const cases: [HookTool, NodeJS.ProcessEnv, boolean][] = [
      ['claude', { CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: 'cli' }, true],
      ['claude', { CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' }, false],
      ['claude', { CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' }, true],
      ['claude', { CLAUDE_CODE_ENTRYPOINT: 'cli' }, false],
      ['claude', {}, false],
      ['codex', { CLAUDE_CODE_SESSION_ATTENDED: '0' }, false],
    ];
    for (const [tool, env, headless] of cases)
      assert.equal(isHeadless(tool, env), headless, JSON.stringify(env));
  });

  it('waits a whole number of seconds from 1 to 3600, and not at all for anything else', () => {
    const cases: [string | undefined, number | undefined][] = [
      ['1', 1],
      [' 60 ', 60],
      ['3600', 3600],
      ['0', undefined],
      ['3601', undefined],
      ['1.5', undefined],
      ['-5', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    for (const [text, seconds] of cases)
      assert.equal(headlessAnswerWait({ NOTIFY_HEADLESS_ANSWER_WAIT: text }), seconds, String(text));
  });
});
