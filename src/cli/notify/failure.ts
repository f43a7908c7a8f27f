/** Spec "Exit codes"; 0 is success. */
export const EXIT_FAILURE = 1;
export const EXIT_UNAUTHORIZED = 2;
export const EXIT_NOT_FOUND = 3;

/** A failure whose message is shown to the user as is, on stderr. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

/** A failure already reported on stderr (by the relay commands' own bundle): only its exit code is left. */
export class ReportedFailure extends Error {
  override name = 'ReportedFailure';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}
