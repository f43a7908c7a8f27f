/** How the hook was started: `--answer-wait=<seconds>` on its command line (hooks install writes it). */
export interface HookOptions {
  /** Seconds a PermissionRequest waits for the person's answer; absent: it only raises, as any event. */
  answerWaitSeconds?: number;
}

/** The most a hook waits for an answer: an hour; tools stop their hooks long before. */
const MAX_ANSWER_WAIT_SECONDS = 3600;
const ANSWER_WAIT = /^--answer-wait=([0-9]{1,4})$/;

/**
 * The hook's own options (written by `hooks install` after the tool's name) apart from the rest:
 * Codex's legacy notify JSON, appended by Codex as the last argument. An option the hook does not
 * know is dropped, so a newer install never breaks an older bundle's agent.
 */
export function readHookOptions(argv: readonly string[]): { options: HookOptions; args: string[] } {
  const options: HookOptions = {};
  const args: string[] = [];
  for (const arg of argv) {
    const wait = ANSWER_WAIT.exec(arg);
    if (wait !== null) {
      const seconds = Number(wait[1]);
      if (seconds >= 1 && seconds <= MAX_ANSWER_WAIT_SECONDS) options.answerWaitSeconds = seconds;
    } else if (!arg.startsWith('--')) {
      args.push(arg);
    }
  }
  return { options, args };
}
