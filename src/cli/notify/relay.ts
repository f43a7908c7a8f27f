import { CliError } from './failure.js';

/** Relay pairing (spec "relay pair", "relay status") is a later release; the word is reserved now. */
export async function run(): Promise<void> {
  throw new CliError(
    "notify relay is not available yet in this version of Notify. Run 'notify help relay' to see what it will do.",
  );
}
