import { CliError } from '../failure.js';
import { run as installSkill } from './install-skill-command.js';

/** `notify install skill ...` is the spec's second spelling of `notify install-skill ...`. */
export async function run(argv: string[]): Promise<void> {
  const [what, ...rest] = argv;
  if (what !== 'skill') {
    throw new CliError(
      `${what === undefined ? 'install requires a target' : `unknown install target '${what}'`}. Usage: notify install skill <claude|codex>.`,
    );
  }
  await installSkill(rest);
}
