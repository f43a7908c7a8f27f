import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process used so far, from /proc (Linux); 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), counted from the state (field 3).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server listening on `port` and its backends: their process ids. */
export function postgresPids(port: number): number[] {
  const parents = new Map<number, number>();
  let postmaster: number | undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (command[0]!.endsWith('/postgres') && command.includes(String(port))) postmaster = Number(entry);
    } catch {
      // A process that ended while being read.
    }
  }
  if (postmaster === undefined) return [];
  return [postmaster, ...[...parents].filter(([, parent]) => parent === postmaster).map(([pid]) => pid)];
}
