import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a test keeps what a person may want to look at afterwards (screenshots): `$NOTIFY_TEST_OUTPUT`,
 * or `notify-test-output` in the temp folder. Prints the path, so the run's output says where it is.
 */
export function testOutputPath(name: string): string {
  const folder = process.env['NOTIFY_TEST_OUTPUT'] || join(tmpdir(), 'notify-test-output');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  console.log(`test output: ${path}`);
  return path;
}
