/** The plays that failed since the last one that played: what doctor and the banner report. */
export interface SoundFailureRun {
  program: string;
  count: number;
  /** Epoch milliseconds of the first failure in the run. */
  since: number;
  /** Completes "<program> <failure>" for the last failure, e.g. "exited with status 1". */
  failure: string;
}

/**
 * Counts consecutive failed plays; a play that succeeds ends the run, so the status says what the last
 * attempts did, not which player was chosen at start.
 */
export class SoundFailures {
  #run: SoundFailureRun | undefined;

  played(): void {
    this.#run = undefined;
  }

  failed(program: string, failure: string, at: number): void {
    const run = this.#run;
    this.#run =
      run && run.program === program
        ? { ...run, count: run.count + 1, failure }
        : { program, count: 1, since: at, failure };
  }

  current(): SoundFailureRun | undefined {
    return this.#run;
  }
}

/** "paplay failed 3 times since 16:02 (it exited with status 1); is a sound server ... running?" */
export function failureRunText(run: SoundFailureRun): string {
  const at = new Date(run.since);
  const pad = (value: number) => String(value).padStart(2, '0');
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const when = run.count === 1 ? `once, at ${clock}` : `${run.count} times since ${clock}`;
  return `${run.program} failed ${when} (it ${run.failure}); is a sound server (PipeWire or PulseAudio) running in this session?`;
}
