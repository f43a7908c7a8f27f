import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecoveryReport, TableRecovery } from '../../store/recover.js';
import { describeRecovery } from './db-recovery-report.js';

const FILE = '/home/a/.local/share/notify/notify.db';
const KEPT = `${FILE}.damaged-2026-11-25T16-30-05-123Z`;
const LAST_LINE = `The new database is ${FILE}; the damaged file is kept as ${KEPT}`;

function read(table: string, recovered: number, more: Partial<TableRecovery> = {}): TableRecovery {
  return {
    table,
    state: 'read',
    recovered,
    leftOut: 0,
    unread: 0,
    unreadExact: true,
    ...more,
  } as TableRecovery;
}

function report(tables: TableRecovery[], ignored: string[] = []): RecoveryReport {
  return { tables, ignored, damagedCopy: KEPT };
}

/** The recovery of a file whose `choices` came out as given, every other table whole. */
function withChoices(choices: TableRecovery): { lines: string[]; lost: boolean } {
  return describeRecovery(report([read('notifications', 12), choices, read('web_sessions', 1)]), FILE);
}

describe('the report of notifyctl db recover', () => {
  it('lists every table in a column, says where both files are, and loses nothing when every row came back', () => {
    assert.deepEqual(withChoices(read('choices', 0)), {
      lines: [
        'Recovered from the damaged database, table by table:',
        '  notifications  12 rows recovered',
        '  choices        0 rows recovered',
        '  web_sessions   1 row recovered',
        LAST_LINE,
      ],
      lost: false,
    });
  });

  it('says rows may be lost when a damaged page hid an unknown number of them, and counts it as a loss', () => {
    const outcome = withChoices(read('choices', 5, { unread: 0, unreadExact: false }));
    assert.equal(outcome.lines[2], '  choices        5 rows recovered, an unknown number could not be read');
    assert.equal(outcome.lost, true);
  });

  it('says "or more" when an index counted some lost rows but could not be read whole', () => {
    const outcome = withChoices(read('choices', 5, { unread: 3, unreadExact: false }));
    assert.equal(outcome.lines[2], '  choices        5 rows recovered, 3 or more could not be read');
    assert.equal(outcome.lost, true);
  });

  it('gives the exact number of unreadable rows when an index listed them all', () => {
    const outcome = withChoices(read('choices', 5, { unread: 2 }));
    assert.equal(outcome.lines[2], '  choices        5 rows recovered, 2 could not be read');
    assert.equal(outcome.lost, true);
  });

  it('counts rows left out for breaking a rule of the schema as lost', () => {
    const outcome = withChoices(read('choices', 1, { leftOut: 2 }));
    assert.equal(
      outcome.lines[2],
      '  choices        1 row recovered, 2 left out (they break a rule of the schema)',
    );
    assert.equal(outcome.lost, true);
    assert.equal(
      withChoices(read('choices', 1, { leftOut: 1, unread: 4 })).lines[2],
      '  choices        1 row recovered, 1 left out (they break a rule of the schema), 4 could not be read',
    );
  });

  it('loses nothing for a table the damaged database is older than', () => {
    const outcome = withChoices({ table: 'choices', state: 'predates' });
    assert.equal(outcome.lines[2], '  choices        none (the damaged database is older than this table)');
    assert.equal(outcome.lost, false);
  });

  const LOST: [TableRecovery, string][] = [
    [{ table: 'choices', state: 'missing' }, 'LOST: not found in the damaged database'],
    [
      { table: 'choices', state: 'refused', reason: 'it is a view, not a table' },
      'LOST: refused, it is a view, not a table; nothing was read from it',
    ],
    [
      { table: 'choices', state: 'unreadable', reason: 'database disk image is malformed' },
      'LOST: could not be read (database disk image is malformed)',
    ],
  ];
  for (const [table, line] of LOST) {
    it(`says a ${table.state} table is lost, and counts it as a loss`, () => {
      const outcome = withChoices(table);
      assert.equal(outcome.lines[2], `  choices        ${line}`);
      assert.equal(outcome.lost, true);
    });
  }

  it('shows text from the damaged file on one short line without its escape sequences', () => {
    const reason = `bad\x1b[2J${'x'.repeat(100)}`;
    const outcome = withChoices({ table: 'choices', state: 'unreadable', reason });
    assert.equal(
      outcome.lines[2],
      `  choices        LOST: could not be read (bad\\x1b[2J${'x'.repeat(73)}... [27 more characters not logged])`,
    );
  });

  it("names the damaged file's foreign objects, at most ten, and counts the rest", () => {
    const names = Array.from({ length: 12 }, (_, n) => `view v${n}`);
    assert.equal(
      describeRecovery(report([read('choices', 1)], names), FILE).lines[2],
      `Not part of Notify's schema, neither read nor copied: ${names.slice(0, 10).join(', ')} and 2 more`,
    );
    assert.deepEqual(
      describeRecovery(report([read('choices', 1)], ['trigger steal\x07', 'view all']), FILE),
      {
        lines: [
          'Recovered from the damaged database, table by table:',
          '  choices  1 row recovered',
          "Not part of Notify's schema, neither read nor copied: trigger steal\\x07, view all",
          LAST_LINE,
        ],
        lost: false,
      },
    );
  });
});
