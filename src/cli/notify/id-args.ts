import { CONNECTION_FLAGS, looksLikeOption, parseArgs, type ParsedArgs } from './args.js';
import { CliError } from './failure.js';

/** Spec "get <id>": the id comes first and must not start with `-`; only --port and --token follow. */
export function parseIdArgs(command: string, argv: string[]): { id: string; parsed: ParsedArgs } {
  const [id, ...rest] = argv;
  if (id === undefined || id.trim() === '' || looksLikeOption(id)) {
    const bulk =
      id === '--all' && (command === 'resolve' || command === 'dismiss')
        ? `\nHint: notify ${command} takes one id; 'notifyctl ${command} --all [--agent A] [--project P] [--type T]' does it for every active notification that matches.`
        : '';
    throw new CliError(`${command} requires an <id>. Usage: notify ${command} <id>.${bulk}`);
  }
  const parsed = parseArgs(
    rest,
    CONNECTION_FLAGS,
    (flag) => `unknown option '${flag}' for ${command}. Run 'notify help ${command}'.`,
  );
  if (parsed.positionals.length > 0) {
    throw new CliError(
      `unexpected argument '${parsed.positionals[0]}' for ${command}. Usage: notify ${command} <id>.`,
    );
  }
  return { id: id.trim(), parsed };
}
