import { readFileSync } from 'node:fs';
import { writeConfigAtomically } from './config-file.js';
import { MalformedConfigError } from './settings.js';

/**
 * Sets top-level fields of config.json and keeps everything else as found, through the atomic writer;
 * the settings watcher then applies the change like any other edit of the file.
 */
export function updateConfigFields(file: string, fields: Record<string, unknown>): void {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MalformedConfigError(`${file} cannot be read as JSON; not changed (${(error as Error).name})`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new MalformedConfigError(`${file}: the top level must be a JSON object; not changed`);
  }
  writeConfigAtomically(file, { ...(document as Record<string, unknown>), ...fields });
}
