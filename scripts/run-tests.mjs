// `npm test` after the build: every compiled test file under node --test, with a time limit so a test
// that hangs fails instead of holding CI. On Node.js 24 the limit applies to each test and hook, and
// is two minutes: a regression that leaves a test waiting fails within it, while the slowest tests
// that pass (about a minute on a 2-core machine, e.g. a snooze of one minute) keep room on a slower
// machine. The npm installs of the package give their own longer `timeout`. On Node.js 22 the limit
// applies to a whole file, so it stays at five minutes there (the slowest file takes under a minute
// and a half). A file whose process outlives its tests fails too (scripts/test-file-bound.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { argv, execPath, exit, versions } from 'node:process';

const PER_TEST_MS = 120_000;
const PER_FILE_MS = 300_000;

const limit = Number(versions.node.split('.')[0]) >= 24 ? PER_TEST_MS : PER_FILE_MS;
const files = readdirSync('dist', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.js'))
  .map((file) => join('dist', file))
  .sort();
const run = spawnSync(
  execPath,
  [
    '--test',
    `--test-timeout=${limit}`,
    '--import',
    pathToFileURL('scripts/test-file-bound.mjs').href,
    '--test-reporter=spec',
    ...argv.slice(2),
    ...files,
  ],
  { stdio: 'inherit' },
);
exit(run.status ?? 1);
