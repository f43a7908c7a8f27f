#!/usr/bin/env node
import './runtime/require-node-floor.js';
import { START_REFUSALS, startBroker } from '../broker/broker.js';
import { InvalidPortError, portOverride } from '../config/broker-port.js';
import { brokerSocketPath, resolvePaths } from '../config/paths.js';
import { MalformedConfigError } from '../config/malformed-config-error.js';
import { VERSION } from '../version.js';
import { optionText, parseArgs } from './notify/args.js';
import { CliError } from './notify/failure.js';
import { startBanner } from './start-banner.js';

const USAGE = `notifyd ${VERSION}: the Notify broker, in the foreground.

Usage: notifyd [--port <n>]

Listens on http://127.0.0.1:<port> until SIGTERM or Ctrl+C. The port: --port, else NOTIFY_PORT, else
config.json "port", else 47821 (--port and NOTIFY_PORT are not written to config.json).
Files: config $XDG_CONFIG_HOME/notify/config.json, data $XDG_DATA_HOME/notify/ (notify.db, and
notifyd.lock while it runs), logs $XDG_STATE_HOME/notify/logs/. A damaged database stops the start:
run 'notifyctl db recover'.`;

const PRESENTATION_WAIT_MS = 2000;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    console.log(`notifyd ${VERSION}`);
    return 0;
  }
  let override;
  try {
    override = portOverride(portFlag(argv), process.env);
  } catch (error) {
    if (!(error instanceof CliError || error instanceof InvalidPortError)) throw error;
    console.error(error instanceof InvalidPortError ? `notifyd: ${error.message}` : error.message);
    return 1;
  }
  const paths = resolvePaths();
  const stopRequested = listenForStop();
  const socketPath = brokerSocketPath(process.env);
  let broker;
  try {
    // The log file is where problems usually go, but a person starting notifyd by hand reads the terminal.
    broker = await startBroker({
      paths,
      onConfigWarning: (warning) => console.error(`Warning: config.json: ${warning}`),
      ...(override !== undefined && { port: override.port }),
      ...(socketPath !== undefined && { socketPath }),
    });
  } catch (error) {
    if (error instanceof MalformedConfigError || START_REFUSALS.some((refusal) => error instanceof refusal)) {
      console.error(`Notify cannot start: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
  broker.warnings.forEach((warning) => console.error(`Notify: warning: ${warning}`));
  // Toasts and the tray say within milliseconds whether they work; a session bus that hangs costs 2 s at most.
  await broker.presentation.settled(PRESENTATION_WAIT_MS);
  console.log(
    startBanner({
      port: broker.port,
      ...(broker.socketPath !== undefined && { socketPath: broker.socketPath }),
      paths,
      presentation: broker.presentation.report(),
      ...(override && { portSource: override.source }),
    }),
  );
  await stopRequested;
  await broker.stop();
  return 0;
}

/**
 * Listens for the stop signals before starting, so a SIGTERM during start-up still ends in a clean
 * stop. The handlers stay for the whole run: a second signal (Ctrl+C pressed twice, a supervisor
 * repeating SIGTERM) must not fall through to Node's default, which kills the process mid-stop.
 */
function listenForStop(): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = () => {
      if (stopping) {
        console.error('Notify is already stopping; it finishes within a few seconds.');
        return;
      }
      stopping = true;
      resolve();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** The value of --port, if given; anything else on the command line is refused. */
function portFlag(argv: string[]): string | undefined {
  const parsed = parseArgs(
    argv,
    { '--port': { kind: 'value', name: 'port' } },
    (flag) => `notifyd: unknown argument '${flag}'. Run 'notifyd --help'.`,
  );
  if (parsed.positionals.length > 0)
    throw new CliError(`notifyd: unknown argument '${parsed.positionals[0]}'. Run 'notifyd --help'.`);
  return optionText(parsed, 'port');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Notify stopped on an unexpected error: ${(error as Error).message}`);
    process.exit(1);
  },
);
