// Loaded by `npm test` (scripts/run-tests.mjs) into the runner and every test file's process; it acts
// in the test files' processes only. Node's test runner waits for a file's process to exit, and a
// process with a server, socket, child or timer still open never does; `--test-force-exit` would end
// it, but it can drop the file's last verdicts before they reach the runner (nodejs/node#64833). So a
// file still running a minute after its last test fails instead, naming what it left open, and no file
// may run longer than ten minutes in all (a wait outside any test, such as a top-level await, has no
// per-test limit).
import { env, exit, getActiveResourcesInfo, stderr } from 'node:process';
import { setTimeout } from 'node:timers';

const GRACE_AFTER_LAST_TEST_MS = 60_000;
const WHOLE_FILE_MS = 600_000;

function failAfter(ms, reason) {
  setTimeout(() => {
    stderr.write(`${reason}; still open: ${getActiveResourcesInfo().join(', ') || 'nothing'}\n`);
    exit(1);
  }, ms).unref();
}

if (env.NODE_TEST_CONTEXT?.startsWith('child')) {
  const { after } = await import('node:test');
  failAfter(WHOLE_FILE_MS, `this test file ran for more than ${WHOLE_FILE_MS / 60_000} minutes`);
  after(() =>
    failAfter(
      GRACE_AFTER_LAST_TEST_MS,
      `this test file's process was still running ${GRACE_AFTER_LAST_TEST_MS / 1000} s after its last test`,
    ),
  );
}
