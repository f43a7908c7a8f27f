/**
 * `npm run bench -- create-profile`: where a create's time goes. notifyd runs with `--cpu-prof` while
 * wrk sends creates (native POST /v1/notifications, then ARC POST /v1/events), and the profile written
 * when it stops is summarised as a text flame summary: the top frames by self and by total time.
 * CREATE_PROFILE_SECONDS sets the load per route (default 8); CREATE_BENCH_NOTIFYD profiles another
 * build's notifyd. The .cpuprofile files are kept (the path is printed) for Chrome DevTools.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker } from '../test/support/broker-process.js';
import { ARC_BODY, UNIQUE_POST_SCRIPT } from './create-throughput.js';
import { CREATE_BODY } from './broker-throughput.js';
import { profileReport } from './support/cpu-profile.js';
import { brokerTarget, jsonPosts } from './support/load-target.js';
import { loadWithWrk } from './support/wrk.js';

const CONNECTIONS = 16;
const SECONDS = Number(process.env['CREATE_PROFILE_SECONDS'] ?? 8);

export async function runCreateProfile(): Promise<void> {
  console.log(`machine load average ${loadavg()[0]!.toFixed(2)} (1 min) at start`);
  for (const route of ['/v1/notifications', '/v1/events'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'notify-create-profile-'));
    const script = process.env['CREATE_BENCH_NOTIFYD'];
    const broker = await startBroker({
      config: { rateLimitPerSecond: 1_000_000_000 },
      env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` },
      ...(script !== undefined && { script }),
    });
    try {
      const target = brokerTarget(broker, route);
      const load =
        route === '/v1/events'
          ? {
              ...jsonPosts(target, ARC_BODY, CONNECTIONS),
              wrk: {
                script: UNIQUE_POST_SCRIPT,
                env: { WRK_PATH: route, WRK_AUTHORIZATION: target.headers['authorization']! },
              },
            }
          : jsonPosts(target, CREATE_BODY, CONNECTIONS);
      const sample = await loadWithWrk(load, SECONDS);
      console.log(
        `\nPOST ${route}: ${(sample.requests / sample.seconds).toFixed(0)} req/s under the profiler`,
      );
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    console.log(file === undefined ? `no profile written in ${dir}` : profileReport(join(dir, file)));
  }
  console.log(`machine load average ${loadavg()[0]!.toFixed(2)} (1 min) at the end`);
}
