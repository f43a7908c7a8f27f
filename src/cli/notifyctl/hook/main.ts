import './exit-below-node-floor.js';
// Next: a stop signal from the tool must find its handler before anything else runs.
import './outlive-stop-signals.js';
import { isHookTool } from '../../../domain/hooks/decision.js';
import { logHookLine } from './hook-log.js';
import { readHookOptions } from './hook-options.js';
import { runHook } from './run-hook.js';

/**
 * The hook adapter's own entry, bundled into dist/notify-hook.cjs (scripts/bundle-client.mjs): the
 * command the agents' settings run, so it starts without notifyctl's other commands. Usage:
 * `node notify-hook.cjs claude|codex|gemini [--answer-wait=<seconds>] [codex-notify-json]`. Always
 * exits 0; prints only a permission answer the person gave.
 */
process.on('uncaughtException', (error) => {
  logHookLine('ERROR', `hook: ${error.name} escaped; exiting 0`);
  process.exit(0);
});
const [tool, ...rest] = process.argv.slice(2);
if (isHookTool(tool)) {
  const { options, args } = readHookOptions(rest);
  void runHook(tool, args, process.env, options).then(
    // A long-poll still open must not hold the process once the answer is out.
    (output) =>
      output === undefined ? process.exit(0) : process.stdout.write(output, () => process.exit(0)),
    () => process.exit(0),
  );
} else {
  logHookLine('WARN', 'hook: unknown tool; expected claude, codex or gemini');
}
