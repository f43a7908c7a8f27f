import { parseArgs } from './args.js';
import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { withHints } from './hints.js';
import { printJson } from './output.js';
import { buildSendBody, SEND_FLAGS } from './send-input.js';

export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(
    argv,
    SEND_FLAGS,
    (flag) => `unknown option '${flag}' for send. Run 'notify help send'.`,
  );
  const body = buildSendBody(parsed, { agent: process.env['NOTIFY_AGENT'], cwd: process.cwd() });
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  printJson(await withHints(connection, () => createClient(connection).create(body)));
}
