import { parseArgs, optionText, type FlagTable } from '../args.js';
import { CliError } from '../failure.js';
import { applyInstall, planInstall, type FileState } from './installer.js';
import { resolveConnection } from '../connection.js';
import { AGENT_TOOLS, lookedUpIn, readsSkillsFrom, skillDirectory, type Scope } from './targets.js';
import { printLine } from '../output.js';

const FLAGS: FlagTable = {
  '--scope': { kind: 'value', name: 'scope' },
  '--path': { kind: 'value', name: 'path' },
  '--force': { kind: 'switch', name: 'force' },
  '--dry-run': { kind: 'switch', name: 'dryRun' },
};

const USAGE =
  'Usage: notify install-skill <claude|codex> [--scope user|project] [--path <dir>] [--force] [--dry-run].';

/**
 * Spec "install-skill": all or nothing. When a file differs and --force is absent, nothing is
 * written, so SKILL.md and its descriptor never come from two versions.
 */
export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(
    argv,
    FLAGS,
    (flag) => `unknown option '${flag}' for install-skill. Run 'notify help install-skill'.`,
  );
  const [toolName, extra] = parsed.positionals;
  if (toolName === undefined) throw new CliError(`install-skill requires a tool: claude or codex. ${USAGE}`);
  const key = toolName.toLowerCase();
  const tool = Object.hasOwn(AGENT_TOOLS, key) ? AGENT_TOOLS[key] : undefined;
  if (tool === undefined) throw new CliError(`unknown tool '${toolName}' for install-skill. ${USAGE}`);
  if (extra !== undefined) throw new CliError(`unexpected argument '${extra}' for install-skill. ${USAGE}`);

  const force = parsed.options.has('force');
  const dryRun = parsed.options.has('dryRun');
  const path = optionText(parsed, 'path');
  if (path !== undefined && path.trim() === '') throw new CliError('--path must not be empty.');
  const scope = readScope(optionText(parsed, 'scope'));
  const dir = skillDirectory(tool, { scope, ...(path && { path }) });
  // The port `notify` would use now, so the skill's curl reaches this broker without NOTIFY_PORT.
  const { port } = resolveConnection(parsed);
  const plan = planInstall(
    dir,
    tool.files(port),
    path === undefined && scope === 'project' ? process.cwd() : undefined,
  );
  const blocked = plan.files.filter((entry) => entry.state === 'changed' && !force);

  const report = (outcome: Outcome) => {
    if (outcome === 'planned') printLine('Dry run: nothing is written.');
    printLine(`${tool.label} skill: ${dir}`);
    for (const entry of plan.files)
      printLine(`  ${entry.file.path}: ${describe(entry.state, force, outcome)}`);
  };
  if (dryRun) return report('planned');
  if (blocked.length > 0) {
    report('blocked');
    const names = blocked.map((entry) => entry.file.path).join(' and ');
    const them = blocked.length > 1 ? 'them' : 'it';
    throw new CliError(
      `Nothing written: ${names} ${blocked.length > 1 ? 'differ' : 'differs'} from the skill of this notify. Run again with --force to replace ${them}.`,
    );
  }
  applyInstall(plan, force);
  report('done');
  const upToDate = plan.files.every((entry) => entry.state === 'up-to-date');
  // A folder of one's own choosing is often not one the tool reads: then "loads" it would be false.
  if (path !== undefined && !readsSkillsFrom(tool, path)) {
    printLine(
      `${upToDate ? 'The skill is up to date.' : 'Installed.'} ${tool.label} does not read skills from here, only from ${lookedUpIn(tool)}: link or copy ${dir} into one of those to use it.`,
    );
  } else {
    printLine(upToDate ? 'The skill is up to date.' : `Installed. ${tool.nextStep}`);
  }
}

function readScope(value: string | undefined): Scope {
  const scope = (value ?? 'user').trim().toLowerCase();
  if (scope !== 'user' && scope !== 'project') throw new CliError('--scope must be user or project.');
  return scope;
}

type Outcome = 'done' | 'planned' | 'blocked';

const LABELS: Record<'missing' | 'changed', Record<Outcome, string>> = {
  missing: { done: 'created', planned: 'would create', blocked: 'not created' },
  changed: { done: 'replaced', planned: 'would replace', blocked: 'not replaced' },
};

function describe(state: FileState, force: boolean, outcome: Outcome): string {
  if (state === 'up-to-date') return 'up to date';
  if (state === 'changed' && !force) return 'changed, kept (--force replaces it)';
  return LABELS[state][outcome];
}
