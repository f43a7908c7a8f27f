import { normalizeType } from '../../domain/notification-type.js';
import { CliError } from './failure.js';

const TYPE_MESSAGE =
  '--type must be a valid identifier containing letters, numbers, underscores, or hyphens (maximum 64 characters).';

/** Spec "Type identifiers": `Input-Required`, `input_required` and `inputrequired` are one type. */
export function readTypeOption(text: string): string {
  const type = normalizeType(text);
  if (type === undefined) throw new CliError(TYPE_MESSAGE);
  return type;
}
