import { readFileSync } from 'node:fs';
import type { BrokerProcess } from '../../test/support/broker-process.js';
import { wrkPost } from './wrk-rate.js';

/** Linux's USER_HZ, the unit of utime and stime in /proc/<pid>/task/<tid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/** What one slice of creates measured on a broker. */
export interface CreateSlice {
  rate: number;
  /** NaN where /proc is missing (not Linux). */
  cpuMicrosPerRequest: number;
}

/**
 * One wrk slice of POST /v1/notifications on the broker: requests per second and its main thread's CPU
 * time per create, which a shared machine disturbs less than the throughput.
 */
export async function createSlice(
  broker: BrokerProcess,
  body: string,
  connections: number,
  seconds: number,
): Promise<CreateSlice> {
  const cpuBefore = mainThreadCpuSeconds(broker);
  const rate = await wrkPost(
    `${broker.baseUrl}/v1/notifications`,
    { authorization: `Bearer ${broker.token}` },
    body,
    connections,
    seconds,
  );
  const cpu = mainThreadCpuSeconds(broker) - cpuBefore;
  return { rate, cpuMicrosPerRequest: (cpu * 1e6) / (rate * seconds) };
}

/** User plus system time of the broker's main thread, from /proc; NaN elsewhere. */
function mainThreadCpuSeconds(broker: BrokerProcess): number {
  const pid = broker.child.pid;
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
