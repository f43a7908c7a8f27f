/**
 * `npm run bench`: every benchmark suite in turn, each printing its figures beside a baseline
 * measured in the same run. Pass suite names to run only those (`npm run bench -- broker`); `--full`
 * makes the suites that have a short default run their full length.
 */
import { spawnSync } from 'node:child_process';
import { runArcBench } from './arc-throughput.js';
import { runBrokerBench } from './broker-throughput.js';
import { runCreateBench } from './create-throughput.js';
import { runCreateProfile } from './create-profile.js';
import { runClientStartupBench } from './client-startup.js';
import { runDaemonStartupBench } from './daemon-startup.js';
import { runStreamBench } from './stream-fanout.js';
import { runHookAdapterBench } from './hook-adapter.js';
import { runPresentationBench } from './presentation.js';
import { runOutboxBench } from './outbox-throughput.js';
import { runDelayedRoutesBench } from './delayed-routes.js';
import { runWebPageBench } from './web-page.js';
import { runRelayDeliveryBench } from './relay-delivery.js';
import { runRelayIngestBench } from './relay-ingest.js';
import { runRelayInboxBench } from './relay-inbox-live.js';
import { runRemoteSocketBench } from './remote-socket.js';
import { runRelayPushBench } from './relay-push.js';
import { runRelayManyBench } from './relay-many.js';
import { runChannelAnswersBench } from './channel-answers.js';

interface Suite {
  name: string;
  run: () => Promise<void>;
}

const suites: Suite[] = [
  { name: 'broker', run: runBrokerBench },
  { name: 'arc', run: runArcBench },
  { name: 'create', run: runCreateBench },
  { name: 'create-profile', run: runCreateProfile },
  { name: 'client', run: runClientStartupBench },
  { name: 'daemon', run: runDaemonStartupBench },
  { name: 'stream', run: runStreamBench },
  { name: 'hooks', run: runHookAdapterBench },
  { name: 'presentation', run: runPresentationBench },
  { name: 'outbox', run: runOutboxBench },
  { name: 'delay', run: runDelayedRoutesBench },
  { name: 'web', run: runWebPageBench },
  { name: 'relay', run: runRelayIngestBench },
  { name: 'relay-delivery', run: runRelayDeliveryBench },
  { name: 'relay-inbox', run: runRelayInboxBench },
  { name: 'remote', run: runRemoteSocketBench },
  { name: 'relay-push', run: runRelayPushBench },
  { name: 'relay-many', run: runRelayManyBench },
  { name: 'channels', run: runChannelAnswersBench },
];

/** The load generator runs outside Node, so it does not take the server's CPU; say how to get it. */
function wrkIsInstalled(): boolean {
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

async function main(selected: string[]): Promise<void> {
  const unknown = selected.filter((name) => !suites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark suite: ${unknown.join(', ')}. Suites: ${suites.map((suite) => suite.name).join(', ')}.`,
    );
    process.exit(2);
  }
  if (!wrkIsInstalled()) {
    console.error(
      'npm run bench needs wrk, the HTTP load generator (Debian and Ubuntu: apt-get install wrk).',
    );
    process.exit(1);
  }
  for (const suite of suites) {
    if (selected.length > 0 && !selected.includes(suite.name)) continue;
    console.log(`\n== ${suite.name} ==`);
    await suite.run();
  }
}

// Flags (--full) are the suites' own; the rest name suites.
await main(process.argv.slice(2).filter((arg) => !arg.startsWith('--')));
