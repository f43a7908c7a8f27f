/** Options of the management commands: repeatable values (`--set a=1 --set b=2`) and switches. */
export interface CtlArgs {
  positionals: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCtlArgs(
  argv: readonly string[],
  valueFlags: readonly string[],
  switchFlags: readonly string[],
): CtlArgs {
  const parsed: CtlArgs = { positionals: [], values: new Map(), switches: new Set() };
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (!word.startsWith('--')) {
      parsed.positionals.push(word);
      continue;
    }
    const [flag, inline] = word.includes('=')
      ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
      : [word, undefined];
    if (switchFlags.includes(flag)) parsed.switches.add(flag);
    else if (valueFlags.includes(flag)) {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      parsed.values.set(flag, [...(parsed.values.get(flag) ?? []), value]);
    } else throw new UsageError(`unknown option '${flag}'`);
  }
  return parsed;
}

export function lastValue(args: CtlArgs, flag: string): string | undefined {
  return args.values.get(flag)?.at(-1);
}
