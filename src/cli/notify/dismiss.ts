import { HttpError } from '../../client/errors.js';
import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { withHints } from './hints.js';
import { parseIdArgs } from './id-args.js';
import { printJson } from './output.js';

export async function run(argv: string[]): Promise<void> {
  const { id, parsed } = parseIdArgs('dismiss', argv);
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  const client = createClient(connection);
  printJson(
    await withHints(connection, async () => {
      try {
        return await client.dismiss(id);
      } catch (error) {
        // Spec: a 404 from the dismiss endpoint (a broker without it, or an unknown id) is retried as
        // a PATCH, whose own 404 is the final answer.
        if (!(error instanceof HttpError && error.status === 404)) throw error;
        return client.setStatus(id, 'dismissed');
      }
    }),
  );
}
