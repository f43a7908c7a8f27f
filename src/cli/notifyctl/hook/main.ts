import './exit-below-node-floor.js';
// Next: a stop signal from the tool must find its handler before anything else runs.
import './outlive-stop-signals.js';
import { isHookTool } from '../../../domain/hooks/decision.js';
import { logHookLine } from './hook-log.js';
import { runHook } from './run-hook.js';

/**
 * The hook adapter's own entry, bundled into dist/notify-hook.cjs (scripts/bundle-client.mjs): the
 * command the agents' settings run, so it starts without notifyctl's other commands. Usage:
 * `node notify-hook.cjs claude|codex|gemini [codex-notify-json]`. Always exits 0, silently.
 */
process.on('uncaughtException', (error) => {
  logHookLine('ERROR', `hook: ${error.name} escaped; exiting 0`);
  process.exit(0);
});
const [tool, ...rest] = process.argv.slice(2);
if (isHookTool(tool)) {
  void runHook(tool, rest, process.env).finally(() => (process.exitCode = 0));
} else {
  logHookLine('WARN', 'hook: unknown tool; expected claude, codex or gemini');
}
