import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { parseIdArgs } from './id-args.js';
import { printJson } from './output.js';

export async function run(argv: string[]): Promise<void> {
  const { id, parsed } = parseIdArgs('get', argv);
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  printJson(await createClient(connection).get(id));
}
