import { ReportedFailure } from './failure.js';

/** `notify relay`: its code loads only when it is the command (src/cli/notify/relay/relay-command.ts). */
export async function run(argv: string[]): Promise<void> {
  const { runRelay } = await import('./relay/relay-command.js');
  const code = await runRelay(argv);
  if (code !== 0) throw new ReportedFailure(code);
}
