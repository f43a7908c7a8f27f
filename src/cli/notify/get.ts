import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { withHints } from './hints.js';
import { parseIdArgs } from './id-args.js';
import { printJson } from './output.js';

export async function run(argv: string[]): Promise<void> {
  const { id, parsed } = parseIdArgs('get', argv);
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  printJson(await withHints(connection, () => createClient(connection).get(id)));
}
