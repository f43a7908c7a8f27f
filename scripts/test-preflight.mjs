// Runs before the tests: the suite drives real system programs (a session bus, a notification daemon
// under a virtual X server, a Secret Service, Apprise, sox, ...). Without one of them a test would
// fail far from the cause, so the suite stops here with the list of what is missing and the one
// apt-get line that brings it. CI installs them all (.ci/run), so there nothing is missing.
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { env, exit, stderr } from 'node:process';
import { URL } from 'node:url';

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
