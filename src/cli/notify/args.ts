import { editDistance } from './did-you-mean.js';
import { CliError } from './failure.js';

/**
 * `value` takes the next word (or `=value`); `switch` takes none; `optional-boolean` takes a value
 * only when the next word does not look like an option (`--unresolved` bare means true); `repeated`
 * takes a value as `value` does, and keeps every one in order (`--set a=1 --set b=2`), in `lists`.
 */
export type FlagKind = 'value' | 'switch' | 'optional-boolean' | 'repeated';

export interface FlagDef {
  kind: FlagKind;
  /** The option's name in the result, shared by aliases (`--msg` and `--message`). */
  name: string;
}

export type FlagTable = Record<string, FlagDef>;

export interface ParsedArgs {
  options: Map<string, string | true>;
  /** The values of `repeated` options, in the order given. */
  lists: Map<string, string[]>;
  positionals: string[];
}

export const CONNECTION_FLAGS: FlagTable = {
  '--port': { kind: 'value', name: 'port' },
  '--token': { kind: 'value', name: 'token' },
};

/**
 * Options may appear anywhere; a repeated option keeps its last value; `--` ends the options so a
 * title may start with a dash. `unknownOption` builds each command's own message for a stray flag.
 */
export function parseArgs(
  argv: readonly string[],
  table: FlagTable,
  unknownOption: (flag: string) => string,
): ParsedArgs {
  const options = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!looksLikeOption(word)) {
      positionals.push(word);
      continue;
    }
    const equals = word.indexOf('=');
    const flag = equals > 0 && word.startsWith('--') ? word.slice(0, equals) : word;
    const inline = flag === word ? undefined : word.slice(equals + 1);
    const def = table[flag];
    if (!def) throw new CliError(withNearFlag(unknownOption(flag), flag, table));
    if (def.kind === 'switch') {
      if (inline !== undefined) throw new CliError(`${flag} does not take a value.`);
      options.set(def.name, true);
    } else if (def.kind === 'repeated') {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new CliError(`${flag} requires a value.`);
      lists.set(def.name, [...(lists.get(def.name) ?? []), value]);
    } else if (inline !== undefined) {
      options.set(def.name, inline);
    } else if (def.kind === 'value') {
      const next = argv[index + 1];
      if (next === undefined) throw new CliError(`${flag} requires a value.`);
      options.set(def.name, next);
      index++;
    } else {
      const next = argv[index + 1];
      if (next !== undefined && !looksLikeOption(next) && next !== '--') {
        options.set(def.name, next);
        index++;
      } else {
        options.set(def.name, true);
      }
    }
  }
  return { options, lists, positionals };
}

/**
 * The command's own message for an unknown option, then, when one of its options is a typo or two
 * away (`--prority`), a hint naming it: on its own line, so the message stays the spec's.
 */
function withNearFlag(message: string, flag: string, table: FlagTable): string {
  const near = nearFlag(flag, Object.keys(table));
  return near === undefined ? message : `${message}\nHint: did you mean '${near}'?`;
}

/**
 * The closest known option that starts with the same letter, allowing one edit per four letters (at
 * least one): `--prority` is `--priority`, but `--sort` is no `--port`. Undefined when none is close.
 */
export function nearFlag(flag: string, known: readonly string[]): string | undefined {
  if (!flag.startsWith('--')) return undefined;
  const typed = flag.toLowerCase();
  const allowed = Math.max(1, Math.floor((typed.length - 2) / 4));
  let best: { flag: string; distance: number } | undefined;
  for (const candidate of known) {
    if (!candidate.startsWith('--') || candidate[2] !== typed[2]) continue;
    const distance = editDistance(typed, candidate);
    if (distance <= allowed && (best === undefined || distance < best.distance))
      best = { flag: candidate, distance };
  }
  return best?.flag;
}

/** A lone `-` is a value (by habit, stdin), as is anything not starting with a dash. */
export function looksLikeOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-');
}

/** Every value of a `repeated` option, in order; none when it was not given. */
export function optionValues(parsed: ParsedArgs, name: string): readonly string[] {
  return parsed.lists.get(name) ?? [];
}

export function optionText(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}
