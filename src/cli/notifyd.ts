#!/usr/bin/env node
import { START_REFUSALS, startBroker } from '../broker/broker.js';
import { resolvePaths } from '../config/paths.js';
import { MalformedConfigError } from '../config/settings.js';
import { VERSION } from '../version.js';

const USAGE = `notifyd ${VERSION}: the Notify broker, in the foreground.

Usage: notifyd

Listens on http://127.0.0.1:<port> (config.json "port", default 47821) until SIGTERM or Ctrl+C.
Files: config $XDG_CONFIG_HOME/notify/config.json, data $XDG_DATA_HOME/notify/ (notify.db, and
notifyd.lock while it runs), logs $XDG_STATE_HOME/notify/logs/. A damaged database stops the start:
run 'notifyctl db recover'.`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    console.log(`notifyd ${VERSION}`);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`notifyd: unknown argument '${argv[0]}'. Run 'notifyd --help'.`);
    return 1;
  }
  const paths = resolvePaths();
  // Listen for the stop signals before starting, so a SIGTERM during start-up still ends in a clean stop.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  let broker;
  try {
    broker = await startBroker({ paths });
  } catch (error) {
    if (error instanceof MalformedConfigError || START_REFUSALS.some((refusal) => error instanceof refusal)) {
      console.error(`Notify cannot start: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
  broker.warnings.forEach((warning) => console.error(`Notify: warning: ${warning}`));
  console.log(`Notify listening on http://127.0.0.1:${broker.port}`);
  await stopRequested;
  await broker.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Notify stopped on an unexpected error: ${(error as Error).message}`);
    process.exit(1);
  },
);
