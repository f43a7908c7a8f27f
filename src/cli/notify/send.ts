import { parseArgs } from './args.js';
import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { withHints } from './hints.js';
import { printJson } from './output.js';
import { buildSendBody, SEND_FLAGS } from './send-input.js';
import { originFromEnv } from '../../client/origin-from-env.js';

export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(
    argv,
    SEND_FLAGS,
    (flag) => `unknown option '${flag}' for send. Run 'notify help send'.`,
  );
  const body = buildSendBody(parsed, { agent: process.env['NOTIFY_AGENT'], cwd: process.cwd() });
  // Where this agent runs, so a click on the toast can take the person there (docs/focus.md).
  const origin = originFromEnv(process.env, body.cwd);
  if (origin !== undefined) body.origin = origin;
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  printJson(await withHints(connection, () => createClient(connection).create(body)));
}
