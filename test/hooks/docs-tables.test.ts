import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { HOOK_TARGETS } from '../../src/cli/notifyctl/hooks/targets.js';
import { readClaudePayload } from '../../src/domain/hooks/claude.js';
import { readCodexNotifyArgument, readCodexPayload } from '../../src/domain/hooks/codex.js';
import type { HookDecision, HookTool } from '../../src/domain/hooks/decision.js';
import { readGeminiPayload } from '../../src/domain/hooks/gemini.js';

/** docs/agents.md as a person reads it: its install table and mapping tables must say what the code does. */
const DOC = readFileSync(new URL('../../../docs/agents.md', import.meta.url), 'utf8');

type Row = Record<string, string>;

/** The markdown tables of the section that starts with `heading`, as rows keyed by column title. */
function tablesUnder(heading: string): Row[][] {
  const start = DOC.indexOf(`\n${heading}`);
  assert.ok(start >= 0, `docs/agents.md has no heading "${heading}"`);
  const next = DOC.slice(start + 1).search(/\n#{2,3} /);
  const section = next < 0 ? DOC.slice(start) : DOC.slice(start, start + 1 + next);
  const tables: Row[][] = [];
  let columns: string[] | undefined;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      columns = undefined;
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    if (columns === undefined) {
      columns = cells;
      tables.push([]);
    } else if (!cells.every((cell) => /^-+$/.test(cell))) {
      tables.at(-1)!.push(Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? ''])));
    }
  }
  return tables;
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, value]) => value!);

/** The events a "Hook event" cell names; "anything else (A, B, new events)" names A, B and a new one. */
function eventsOf(cell: string): string[] {
  const others = /^anything else \((.*)\)$/.exec(cell);
  if (others === null) return cell.split(', ');
  return [...others[1]!.split(', ').filter((name) => name !== 'new events'), 'SomeFutureEvent'];
}

const RUNNING_TASK = { id: 't1', type: 'shell', status: 'running', description: 'Dev server' };

/** The payload fields a "When" cell describes, one set per case it covers. */
function conditionsOf(cell: string): Record<string, unknown>[] {
  if (cell === '') return [{}];
  if (cell.startsWith('`prompt` is a `<task-notification>` block')) {
    const prompt = '<task-notification>\n<status>completed</status>\n</task-notification>';
    return [{ prompt }, { prompt, source: 'user' }];
  }
  const field = /^`([a-z_]+)` is (.*)$/.exec(cell);
  assert.ok(field, `a "When" cell the test does not know how to read: ${cell}`);
  const [, name, rest] = field as unknown as [string, string, string];
  if (rest === 'empty or absent') return [{ [name]: [] }, {}];
  if (rest === 'not empty') return [{ [name]: [RUNNING_TASK, { ...RUNNING_TASK, id: 't2' }] }];
  const cases: Record<string, unknown>[] = backticked(rest).map((value) => ({ [name]: value }));
  if (/\babsent\b/.test(rest)) cases.push({});
  if (/\bany other\b/.test(rest)) cases.push({ [name]: 'a_future_value' });
  return cases;
}

const READERS: Record<HookTool, (payload: unknown) => HookDecision> = {
  claude: readClaudePayload,
  codex: readCodexPayload,
  gemini: readGeminiPayload,
};

const TOOL_MESSAGE = 'A message the tool wrote';

/** Does, Kind, Title and Message of a row against what the adapter decided. */
function assertRow(row: Row, decision: HookDecision, what: string): void {
  const todo = decision.todo;
  const does = row['Does'];
  if (does === 'end earlier outcomes') return assert.equal(todo.action, 'start', what);
  if (does === 'nothing' || does === 'resolve' || does === 'resolve what asks') {
    assert.equal(todo.action, does === 'nothing' ? 'ignore' : 'resolve', what);
    const keepsOutcome = todo.action === 'resolve' && todo.keepOutcome === true;
    assert.equal(keepsOutcome, does === 'resolve what asks', `${what}: keeps a finished or failed run`);
    return;
  }
  assert.equal(does, 'raise', what);
  assert.equal(todo.action, 'raise', what);
  if (todo.action !== 'raise') return;
  assert.equal(todo.kind, row['Kind'], what);
  assert.equal(todo.title, row['Title'], what);
  const message = row['Message']!;
  if (/^the .*`message`$/.test(message)) return assert.equal(todo.message, TOOL_MESSAGE, what);
  const [sentence] = backticked(message);
  const pattern = sentence!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z_]+>|<N>/gi, '.+');
  assert.match(todo.message, new RegExp(`^${pattern}$`), what);
}

describe('docs/agents.md says what the adapter does', () => {
  for (const [tool, heading] of [
    ['claude', '### Claude Code ('],
    ['codex', '### Codex ('],
    ['gemini', '### Gemini CLI ('],
  ] as const) {
    it(`maps every ${tool} event of its mapping table as the table says`, () => {
      const [table] = tablesUnder(heading);
      assert.ok(table && table.length > 0, heading);
      for (const row of table) {
        if (row['Does'] === '') continue;
        for (const event of eventsOf(row['Hook event']!)) {
          for (const condition of conditionsOf(row['When'] ?? '')) {
            const payload = {
              hook_event_name: event,
              session_id: 'docs-session',
              cwd: '/home/ada/api',
              message: TOOL_MESSAGE,
              prompt: 'PROMPT-go on',
              tool_name: 'Bash',
              error: 'rate_limit',
              ...condition,
            };
            assertRow(row, READERS[tool](payload), `${event} ${JSON.stringify(condition)}`);
          }
        }
      }
    });
  }

  it("maps Codex's legacy notify types as its table says", () => {
    const [, legacy] = tablesUnder('### Codex (');
    assert.ok(legacy && legacy.length > 0);
    for (const row of legacy) {
      const types =
        row['`type`'] === 'anything else'
          ? ['approval-requested', 'a-future-type']
          : backticked(row['`type`']!);
      for (const type of types) {
        const decision = readCodexNotifyArgument({ type, 'thread-id': 'docs-thread', cwd: '/home/ada/api' });
        assertRow(row, decision, type);
      }
    }
  });

  it('lists, for every tool, exactly the events install writes', () => {
    const [install] = tablesUnder('## `notifyctl hooks install|uninstall|status`');
    assert.ok(install);
    for (const tool of ['claude', 'codex', 'gemini'] as const) {
      const row: Row | undefined = install.find((each) => each['Tool'] === tool);
      assert.ok(row, tool);
      assert.deepEqual(row['Events installed']!.split(', '), [...HOOK_TARGETS[tool].events], tool);
    }
  });
});
