/** `notify-relay migrate [--check]`: the schema brought to the current version, or only checked. */
import type { Target } from './args.js';
import { describeTarget, openDatabase } from './open-database.js';
import type { RelayIo } from './relay-io.js';
import { migrate, NewerSchemaError, SCHEMA_VERSION, schemaVersion } from './store-migrations.js';

export async function runMigrate(
  target: Target,
  check: boolean,
  io: Pick<RelayIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const say = (text: string): boolean => io.stdout.write(`${text}\n`);
  const complain = (text: string): boolean => io.stderr.write(`${text}\n`);
  const db = openDatabase(target);
  const where = describeTarget(target);
  try {
    if (check) {
      const version = await schemaVersion(db);
      if (version > SCHEMA_VERSION) {
        complain(`${where}: ${new NewerSchemaError(version).message}.`);
        return 1;
      }
      if (version === SCHEMA_VERSION) {
        say(`${where}: schema version ${version}, current.`);
        return 0;
      }
      say(
        `${where}: schema version ${version}, ${SCHEMA_VERSION - version} migration(s) to apply (run 'notify-relay migrate').`,
      );
      return 1;
    }
    const applied = await migrate(db);
    say(
      applied.length === 0
        ? `${where}: schema version ${SCHEMA_VERSION}, current; nothing to apply.`
        : `${where}: applied migration(s) ${applied.join(', ')}; schema version ${SCHEMA_VERSION}.`,
    );
    return 0;
  } catch (error) {
    complain(`notify-relay migrate failed on ${where}: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}
