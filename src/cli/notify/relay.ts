import { CliError } from './failure.js';

/**
 * `notify relay pair|status` (spec "Client command"). The pairing code loads only when `relay` is the
 * command, so no other command pays for it.
 */
export async function run(argv: string[]): Promise<void> {
  const [subcommand, ...rest] = argv;
  if (subcommand === 'pair') return (await import('./relay/pair.js')).runPair(rest);
  if (subcommand === 'status') return (await import('./relay/status.js')).runStatus(rest);
  throw new CliError(
    subcommand === undefined
      ? "relay requires a subcommand: pair or status. Run 'notify help relay'."
      : `unknown relay subcommand '${subcommand}'; use pair or status. Run 'notify help relay'.`,
  );
}
