import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPermissionQuestion } from '../../src/domain/hooks/permission-request.js';

const request = (tool_name: string, tool_input: unknown) => ({
  hook_event_name: 'PermissionRequest',
  session_id: 's',
  prompt: 'PROMPT-do it',
  tool_name,
  tool_input,
  tool_response: 'TOOL-OUTPUT-x',
});

describe('a permission request says what will run', () => {
  it('shows the Bash command, the file of an edit or write, the URL of a fetch, exactly', () => {
    const cases: [string, unknown, string][] = [
      [
        'Bash',
        { command: 'sort < input.txt > out.txt ', description: 'Sort' },
        'Claude Code wants to run this command:\nsort < input.txt > out.txt ',
      ],
      [
        'Edit',
        { file_path: '/home/ada/api/src/a&b.ts', old_string: 'x', new_string: 'y' },
        'Claude Code wants to edit /home/ada/api/src/a&b.ts',
      ],
      [
        'MultiEdit',
        { file_path: '/home/ada/api/b.ts', edits: [] },
        'Claude Code wants to edit /home/ada/api/b.ts',
      ],
      [
        'Write',
        { file_path: '/home/ada/api/new.ts', content: 'SECRET' },
        'Claude Code wants to write /home/ada/api/new.ts',
      ],
      [
        'NotebookEdit',
        { notebook_path: '/home/ada/n.ipynb', new_source: 'x' },
        'Claude Code wants to write /home/ada/n.ipynb',
      ],
      [
        'WebFetch',
        { url: 'https://example.com/?q=<a>', prompt: 'PROMPT-summarize' },
        'Claude Code wants to fetch https://example.com/?q=<a>',
      ],
      ['mcp__deploy__run', { target: 'prod' }, 'Claude Code wants to use mcp__deploy__run.'],
      ['Bash', 'not an object', 'Claude Code wants to use Bash.'],
      ['Write', { content: 'no path' }, 'Claude Code wants to use Write.'],
      ['rm -rf /', { command: 'x' }, 'Claude Code is waiting for your permission.'],
    ];
    for (const [tool, input, message] of cases) {
      const question = readPermissionQuestion('claude', request(tool, input));
      assert.equal(question.message, message, tool);
      assert.doesNotMatch(question.message, /PROMPT-|TOOL-OUTPUT-|SECRET/, tool);
    }
  });

  it('cuts what cannot fit in a message and says so', () => {
    const command = `echo ${'x'.repeat(4000)}`;
    const { message } = readPermissionQuestion('codex', request('Bash', { command }));
    const shown = 'Codex wants to run this command:\n' + command.slice(0, 3800);
    assert.equal(message, `${shown}\n… [cut: ${command.length - 3800} more characters not shown]`);
    assert.ok(Array.from(message).length <= 4000 - '\n\nAnswer in the terminal.'.length);
  });

  it('keeps a command of exactly the longest length whole', () => {
    const command = 'x'.repeat(3800);
    const { message } = readPermissionQuestion('codex', request('Bash', { command }));
    assert.equal(message, `Codex wants to run this command:\n${command}`);
  });

  it("leaves 'Always allow' to the terminal when its rule cannot be said beside a long command", () => {
    const command = 'x'.repeat(3800);
    const rule = { toolName: 'Bash', ruleContent: `make ${'y'.repeat(200)}` };
    const question = readPermissionQuestion('claude', {
      ...request('Bash', { command }),
      permission_suggestions: [
        { type: 'addRules', rules: [rule], behavior: 'allow', destination: 'session' },
      ],
    });
    assert.deepEqual(
      question.actions.map((action) => action.id),
      ['allow', 'deny'],
    );
    assert.equal(question.message, question.subject);
    assert.equal(question.suggestions, undefined);
  });

  it("offers 'Always allow' only for Claude Code suggestions that are a list of objects", () => {
    const suggestions = [
      { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' },
    ];
    const ids = (tool: 'claude' | 'codex', value: unknown) =>
      readPermissionQuestion(tool, {
        ...request('Bash', { command: 'ls' }),
        permission_suggestions: value,
      }).actions.map((action) => action.id);
    assert.deepEqual(ids('claude', suggestions), ['allow', 'deny', 'allow_always']);
    assert.deepEqual(ids('codex', suggestions), ['allow', 'deny']);
    for (const odd of [[], 'x', [1], [suggestions[0], null]])
      assert.deepEqual(ids('claude', odd), ['allow', 'deny']);
  });

  it("'Always allow' grants what the terminal's option grants: rules that allow and folders, never a mode change", () => {
    const rule = (ruleContent: string, destination = 'localSettings') => ({
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent }],
      behavior: 'allow',
      destination,
    });
    const mode = { type: 'setMode', mode: 'acceptEdits', destination: 'session' };
    const folder = { type: 'addDirectories', directories: ['/home/ada/api'], destination: 'session' };
    const asked = (suggestions: unknown[]) =>
      readPermissionQuestion('claude', {
        ...request('Bash', { command: 'x' }),
        permission_suggestions: suggestions,
      });
    const cases: [unknown[], object[] | undefined, string | undefined][] = [
      [[rule('npm test'), mode], [rule('npm test')], 'Always allow `npm test` in this project'],
      [[rule('npm test *')], [rule('npm test *')], 'Always allow npm test * in this project'],
      [
        [rule('make', 'userSettings')],
        [rule('make', 'userSettings')],
        'Always allow `make` in all your projects',
      ],
      [[rule('ls', 'session')], [rule('ls', 'session')], 'Always allow `ls` in this session'],
      [[folder, mode], [folder], 'Always allow (see below)'],
      [[mode], undefined, undefined],
      [[{ ...rule('rm *'), behavior: 'deny' }], undefined, undefined],
      [
        [{ type: 'removeRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }],
        undefined,
        undefined,
      ],
      [[{ ...rule('ls'), destination: 'policySettings' }], undefined, undefined],
    ];
    for (const [suggestions, granted, label] of cases) {
      const question = asked(suggestions);
      assert.deepEqual(question.suggestions, granted, JSON.stringify(suggestions));
      assert.equal(question.actions.find((action) => action.id === 'allow_always')?.label, label);
    }
  });
});
