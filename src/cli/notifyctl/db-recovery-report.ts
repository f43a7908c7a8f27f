import { neutralize, truncate } from '../../log/log-text.js';
import type { RecoveryReport, TableRecovery } from '../../store/recover.js';

/** Names of the damaged file's foreign objects shown; the rest are counted. */
const MAX_IGNORED_SHOWN = 10;
/** Characters shown of a text that comes from the damaged file (an object's name, SQLite's message). */
const MAX_FILE_TEXT_CHARACTERS = 80;

/** The lines `notifyctl db recover` prints, table by table, and whether any row was lost. */
export function describeRecovery(report: RecoveryReport, file: string): { lines: string[]; lost: boolean } {
  const width = Math.max(...report.tables.map((table) => table.table.length));
  const lines = [`Recovered from the damaged database, table by table:`];
  for (const table of report.tables) lines.push(`  ${table.table.padEnd(width)}  ${tableOutcome(table)}`);
  if (report.ignored.length > 0) {
    const shown = report.ignored.slice(0, MAX_IGNORED_SHOWN).map(printable);
    const more = report.ignored.length - shown.length;
    lines.push(
      `Not part of Notify's schema, neither read nor copied: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    );
  }
  lines.push(`The new database is ${file}; the damaged file is kept as ${report.damagedCopy}`);
  return { lines, lost: report.tables.some(lostRows) };
}

function lostRows(table: TableRecovery): boolean {
  switch (table.state) {
    case 'read':
      return table.leftOut > 0 || table.unread > 0 || !table.unreadExact;
    case 'predates':
      return false;
    default:
      return true;
  }
}

function tableOutcome(table: TableRecovery): string {
  switch (table.state) {
    case 'read': {
      const parts = [`${rows(table.recovered)} recovered`];
      if (table.leftOut > 0) parts.push(`${table.leftOut} left out (they break a rule of the schema)`);
      if (table.unreadExact) {
        if (table.unread > 0) parts.push(`${table.unread} could not be read`);
      } else if (table.unread > 0) parts.push(`${table.unread} or more could not be read`);
      else parts.push('an unknown number could not be read');
      return parts.join(', ');
    }
    case 'predates':
      return 'none (the damaged database is older than this table)';
    case 'missing':
      return 'LOST: not found in the damaged database';
    case 'refused':
      return `LOST: refused, ${printable(table.reason)}; nothing was read from it`;
    case 'unreadable':
      return `LOST: could not be read (${printable(table.reason)})`;
  }
}

function rows(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

/** Text the damaged file chose, on one line of bounded length, with no escape sequence of its own. */
function printable(text: string): string {
  return neutralize(truncate(text, MAX_FILE_TEXT_CHARACTERS));
}
