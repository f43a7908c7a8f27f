// Runs before the tests: the suite drives real system programs (a session bus, a notification daemon
// under a virtual X server, a Secret Service, Apprise, sox, ...). Without one of them a test would
// fail far from the cause, so the suite stops here with the list of what is missing and the one
// apt-get line that brings it. CI installs them all (.ci/run), so there nothing is missing.
// First of all it checks the Node.js: `npm test` runs it before the build, so on an older Node.js the
// suite stops at once with the line every Notify program prints there (src/cli/runtime/node-floor.ts;
// a test keeps the two the same), instead of running every test to fail.
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { env, exit, stderr, version, versions } from 'node:process';
import { URL } from 'node:url';

/** package.json's `engines.node` (">=22.14"): the floor the programs refuse to run below. */
const FLOOR = /^>=(\d+)\.(\d+)$/
  .exec(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node)
  .slice(1)
  .map(Number);
const [major, minor] = versions.node.split('.').map(Number);
if (major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])) {
  stderr.write(
    `Notify needs Node.js ${FLOOR.join('.')} or later (24 recommended); this is Node.js ${version}. ` +
      'Get a current one from https://nodejs.org/, or without touching the system: ' +
      'npm install --prefix ~/.local/node24 node@24 && export PATH="$HOME/.local/node24/node_modules/node/bin:$PATH"\n',
  );
  exit(1);
}

/** Each program the tests start, with the Debian package that has it. */
const TEST_PROGRAMS = Object.entries(
  JSON.parse(readFileSync(new URL('test-programs.json', import.meta.url), 'utf8')),
);

function onPath(program) {
  return (env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const missing = TEST_PROGRAMS.filter(([program]) => !onPath(program));
if (missing.length > 0) {
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  stderr.write(
    `The tests need programs that are not installed: ${missing.map(([program]) => program).join(', ')}.\n` +
      `Install them with: sudo apt-get install ${packages.join(' ')}\n`,
  );
  exit(1);
}
