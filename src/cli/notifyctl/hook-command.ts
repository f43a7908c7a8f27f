import { HOOK_TOOLS, isHookTool } from '../../domain/hooks/decision.js';
import type { NotifyctlCommand } from './command.js';

/**
 * `notifyctl hook claude|codex|gemini`: the hook adapter, for people who wire it by hand. The hook
 * code is imported only here, on use, so no other command pays for it (and it never pulls server
 * code). Installed hooks run the same code from dist/notify-hook.cjs, which starts faster.
 */
export const hookCommand: NotifyctlCommand = {
  name: 'hook',
  summary: "turn an agent tool's hook event into a Notify condition (claude, codex, gemini)",
  help: () =>
    [
      'Usage: notifyctl hook <claude|codex|gemini>',
      '',
      "The hook event comes on stdin (Codex's notify event: its JSON as the last argument).",
      "The hook adapter the agent tool runs: it turns the tool's hook event into a Notify condition,",
      "raises or resolves it, and never fails its agent. 'notifyctl hooks install <tool>' wires it up",
      'for you; see docs/agents.md.',
    ].join('\n'),
  subcommands: HOOK_TOOLS.map((name) => ({ name })),
  async run(args) {
    const [tool, ...rest] = args;
    if (!isHookTool(tool)) {
      // A hook must never fail its agent: even a wrong tool name exits 0, and only the log says so.
      const { logHookLine } = await import('./hook/hook-log.js');
      logHookLine('WARN', 'hook: unknown tool; expected claude, codex or gemini');
      return 0;
    }
    const { runHook } = await import('./hook/run-hook.js');
    const { readHookOptions } = await import('./hook/hook-options.js');
    const { options, args: payloadArgs } = readHookOptions(rest);
    const output = await runHook(tool, payloadArgs, process.env, options);
    // A long-poll still open must not hold the process once the answer is out.
    if (output !== undefined) process.stdout.write(output, () => process.exit(0));
    else process.exit(0);
    return 0;
  },
};
