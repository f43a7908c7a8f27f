export const PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];

export function isPriority(value: unknown): value is Priority {
  return typeof value === 'string' && (PRIORITIES as readonly string[]).includes(value);
}

/** Case-insensitive; `-` and `_` are insignificant ("Critical", "crit_ical" both read as critical). */
export function normalizePriority(input: string): Priority | undefined {
  const folded = input.trim().toLowerCase().replace(/[-_]/g, '');
  return isPriority(folded) ? folded : undefined;
}

export function priorityRank(priority: Priority): number {
  return PRIORITIES.indexOf(priority);
}
