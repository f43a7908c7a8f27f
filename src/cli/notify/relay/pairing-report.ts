import type { RelayIo } from './relay-io.js';

/**
 * What `notify relay pair` tells the person: the code and URL on stdout (or, with --json, one compact
 * object per state transition), the time left on stderr, so that stdout stays what a script reads.
 */

export type PairingState = Record<string, unknown> & { state: string };

export class PairingReport {
  #countdown: NodeJS.Timeout | undefined;
  #countdownShown = false;
  readonly #tty: boolean;

  constructor(
    readonly json: boolean,
    private readonly io: RelayIo,
  ) {
    this.#tty = io.stderrIsTerminal;
  }

  /** A state transition: printed with --json; `lines` are printed otherwise. */
  transition(state: PairingState, ...lines: string[]): void {
    this.clearCountdown();
    if (this.json) this.io.printLine(JSON.stringify(state));
    else lines.forEach((line) => this.io.printLine(line));
  }

  /** A note for the person on stderr, in either mode. */
  note(line: string): void {
    this.clearCountdown();
    this.io.printError(line);
  }

  /**
   * Counts down to `expiresAt` on stderr: one line rewritten each second on a terminal; otherwise a line
   * at the start and at each whole minute left, so a log is not flooded.
   */
  startCountdown(expiresAt: number, now: () => number = Date.now): void {
    this.stopCountdown();
    let lastMinute = -1;
    const tick = () => {
      const left = Math.max(0, Math.ceil((expiresAt - now()) / 1000));
      const text = `Waiting for approval: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left (Ctrl+C cancels).`;
      if (this.#tty) {
        this.io.rewrite(`\r\x1b[K${text}`);
        this.#countdownShown = true;
      } else if (Math.ceil(left / 60) !== lastMinute) {
        lastMinute = Math.ceil(left / 60);
        this.io.printError(text);
      }
    };
    tick();
    this.#countdown = setInterval(tick, 1000);
    this.#countdown.unref();
  }

  stopCountdown(): void {
    clearInterval(this.#countdown);
    this.#countdown = undefined;
    this.clearCountdown();
  }

  private clearCountdown(): void {
    if (!this.#countdownShown) return;
    this.io.rewrite('\r\x1b[K');
    this.#countdownShown = false;
  }
}
