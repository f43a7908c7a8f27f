import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Surface } from '../answers.js';
import { permissionDecision } from './permission-decision.js';
import { readPermissionQuestion } from './permission-request.js';

// The hook tests run the bundled adapter (dist/notify-hook.cjs); these read the decision itself.
const grant = {
  type: 'addRules',
  rules: [{ toolName: 'Bash', ruleContent: 'ls' }],
  behavior: 'allow',
  destination: 'session',
};
const asked = (tool: 'claude' | 'codex') =>
  readPermissionQuestion(tool, {
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    permission_suggestions: [grant],
  });
const decisionOf = (tool: 'claude' | 'codex', action: string, surface: Surface = 'toast') =>
  permissionDecision(tool, asked(tool), { action, surface });
const answered = (decision: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision },
});

describe('the decision a permission answer gives the tool', () => {
  it('allows, and with "Always allow" adds exactly the rules Claude Code suggested', () => {
    assert.deepEqual(decisionOf('claude', 'allow'), answered({ behavior: 'allow' }));
    assert.deepEqual(
      decisionOf('claude', 'allow_always'),
      answered({ behavior: 'allow', updatedPermissions: [grant] }),
    );
  });

  it('gives no decision for an answer the question did not offer: the tool asks in the terminal', () => {
    assert.equal(decisionOf('codex', 'allow_always'), undefined);
    assert.equal(decisionOf('claude', 'maybe'), undefined);
  });

  it('denies saying where the person denied', () => {
    const cases: [Surface, string][] = [
      ['toast', 'Denied from the desktop (Notify toast)'],
      ['tray', 'Denied from the desktop (Notify tray menu)'],
      ['web', "Denied from Notify's web page"],
      ['cli', 'Denied from the command line (notifyctl answer)'],
      ['relay', 'Denied from the phone (Notify relay)'],
      ['telegram', 'Denied on Telegram (Notify)'],
      ['slack', 'Denied on Slack (Notify)'],
      ['discord', 'Denied on Discord (Notify)'],
      ['matrix', 'Denied on Matrix (Notify)'],
      ['mqtt', 'Denied through MQTT (Notify)'],
    ];
    for (const [surface, message] of cases)
      assert.deepEqual(
        decisionOf('codex', 'deny', surface),
        answered({ behavior: 'deny', message }),
        surface,
      );
  });
});
