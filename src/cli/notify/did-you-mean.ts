/**
 * A first word that is no command is a positional send (spec "Client command"), so `notify lsit`
 * sends a notification titled "lsit". When that word is one typo away from a command, say so.
 */
export function nearCommand(word: string, commands: readonly string[]): string | undefined {
  const folded = word.toLowerCase();
  return (
    commands.find((command) => command !== folded && editDistance(folded, command) <= 1) ??
    commands.find((command) => command === folded)
  );
}

/** Could this word be a mistyped command at all? Cheap, so a normal send skips the rest. */
export function mayBeCommand(word: string): boolean {
  return /^[a-z-]{2,14}$/i.test(word);
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours
 * each count as one edit, so `lsit` is one edit from `list`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
