import type { Figures } from './load.js';

/** Side-by-side tables of broker and baseline figures, with a PASS/MISS column per target. */
export interface Row {
  label: string;
  broker: number;
  baseline?: number;
  /** Shown when present: e.g. "≥ 0.80× baseline". */
  target?: string;
  pass?: boolean;
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));

/** `columns` names the two figures' columns when they are not the broker and its baseline. */
export function printTable(
  title: string,
  rows: Row[],
  columns: [string, string] = ['broker', 'baseline'],
): void {
  const lines = [['', ...columns, 'ratio', 'target', '']];
  for (const row of rows) {
    lines.push([
      row.label,
      format(row.broker),
      row.baseline === undefined ? '-' : format(row.baseline),
      row.baseline === undefined || row.baseline === 0 ? '-' : `${(row.broker / row.baseline).toFixed(2)}×`,
      row.target ?? '',
      row.pass === undefined ? '' : row.pass ? 'PASS' : 'MISS',
    ]);
  }
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  console.log(`\n${title}`);
  for (const line of lines) {
    console.log(
      line
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  ')
        .trimEnd(),
    );
  }
}

/** Server CPU per request, when both sides could be read: the figure other programs on the machine barely disturb. */
export function cpuRow(label: string, broker: Figures, baseline: Figures): Row[] {
  if (broker.cpuMicrosPerRequest === undefined || baseline.cpuMicrosPerRequest === undefined) return [];
  return [{ label, broker: broker.cpuMicrosPerRequest, baseline: baseline.cpuMicrosPerRequest }];
}
