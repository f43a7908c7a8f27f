import { neutralize } from '../../../domain/neutralize.js';
import { CONNECTION_FLAGS, parseArgs } from '../args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../connection.js';
import { CliError } from '../failure.js';
import { withHints } from '../hints.js';
import {
  checkConnection,
  listRelayProfiles,
  type RelayConnection,
  type RelayProfile,
} from './relay-profiles.js';
import { PROCESS_IO, type RelayIo } from './relay-io.js';

const FLAGS = { ...CONNECTION_FLAGS, '--json': { kind: 'switch', name: 'json' } } as const;

/**
 * `notify relay status` (spec "Client command"): every relay profile's credential checked by the
 * broker through the relay's GET /v1/installation (the credential never leaves the broker). Exit 1
 * when a profile is not connected, so a script can tell.
 */
export async function runStatus(argv: string[], io: RelayIo = PROCESS_IO): Promise<void> {
  const parsed = parseArgs(
    argv,
    FLAGS,
    (flag) => `unknown option '${flag}' for relay status. Run 'notify help relay'.`,
  );
  if (parsed.positionals.length > 0) {
    throw new CliError(
      `unexpected argument '${parsed.positionals[0]}' for relay status. Run 'notify help relay'.`,
    );
  }
  const json = parsed.options.get('json') === true;
  const connection = resolveConnection(parsed, io.env);
  warnWhenTokenless(connection, (text) => io.printError(text));
  const client = createClient(connection);
  const results = await withHints(connection, async () => {
    const profiles = await listRelayProfiles(client);
    const checked: { profile: RelayProfile; connection: RelayConnection }[] = [];
    for (const profile of profiles)
      checked.push({ profile, connection: await checkConnection(client, profile.id) });
    return checked;
  });
  if (results.length === 0 && !json) {
    io.printLine('(no relay profiles)');
    io.printError('Hint: pair with a relay first: notify relay pair --url https://relay.example.com');
    return;
  }
  for (const { profile, connection: state } of results) {
    if (json) io.printLine(JSON.stringify(statusObject(profile, state)));
    else io.printLine(statusLines(profile, state).join('\n'));
  }
  const failing = results.filter((result) => result.connection.state !== 'connected').length;
  if (failing > 0) throw new CliError(`${failing} of ${results.length} relay profile(s) not connected.`);
}

function statusObject(profile: RelayProfile, connection: RelayConnection): Record<string, unknown> {
  return {
    id: profile.id,
    name: profile.name,
    url: profile.url,
    state: connection.state,
    installation: connection.installation ?? null,
    disabled: !profile.enabled,
    ...(connection.state !== 'connected' && { summary: connection.summary }),
  };
}

function statusLines(profile: RelayProfile, connection: RelayConnection): string[] {
  const installation = connection.installation;
  // Names came from the relay (or from a profile saved before they were cleaned): shown inert.
  return [
    `${profile.name} (${profile.url})`,
    `  connection:   ${connection.state}${connection.state === 'connected' ? '' : `: ${connection.summary}`}`,
    `  installation: ${installation === undefined ? 'unknown' : `${installation.name} (${installation.id})`}`,
    `  profile:      ${profile.enabled ? 'enabled' : 'disabled'} (${profile.id})`,
  ].map(neutralize);
}
