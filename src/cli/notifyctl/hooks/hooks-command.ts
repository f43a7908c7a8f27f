import { existsSync } from 'node:fs';
import { HOOK_TOOLS, isHookTool, type HookTool } from '../../../domain/hooks/decision.js';
import { optionText, parseArgs, type FlagTable } from '../../notify/args.js';
import { CliError } from '../../notify/failure.js';
import type { NotifyctlCommand } from '../command.js';
import { portInForce, portWords } from '../port-in-force.js';
import { commandPaths, commandPort, hookCommandLine, HOOK_BUNDLE } from './hook-command-line.js';
import {
  applyPlan,
  backupFile,
  changes,
  planInstall,
  planUninstall,
  stateOf,
  type FilePlan,
} from './installer.js';
import { MalformedSettingsError } from './settings-file.js';
import {
  ANSWER_MARGIN_SECONDS,
  HOOK_TARGETS,
  MAX_PERMISSION_TIMEOUT_SECONDS,
  MIN_PERMISSION_TIMEOUT_SECONDS,
  type PermissionAnswers,
  type Scope,
} from './targets.js';

export const HOOKS_USAGE =
  'Usage: notifyctl hooks install <claude|codex|gemini> [--scope user|project] [--dry-run]\n' +
  '                               [--answer-wait <seconds> | --permission-timeout <seconds>\n' +
  '                                | --no-answers]\n' +
  '       notifyctl hooks uninstall <claude|codex|gemini> [--scope user|project] [--dry-run]\n' +
  '       notifyctl hooks status [claude|codex|gemini]';

const FLAGS: FlagTable = {
  '--scope': { kind: 'value', name: 'scope' },
  '--dry-run': { kind: 'switch', name: 'dry-run' },
  '--permission-timeout': { kind: 'value', name: 'permission-timeout' },
  '--answer-wait': { kind: 'value', name: 'answer-wait' },
  '--no-answers': { kind: 'switch', name: 'no-answers' },
};

/** `notifyctl hooks install|uninstall|status`: Notify's hook entries in the agent tools' settings. */
export const hooksCommand: NotifyctlCommand = {
  name: 'hooks',
  summary: "install, uninstall or check Notify's hooks in Claude Code, Codex and Gemini CLI",
  help: () =>
    [
      HOOKS_USAGE,
      '',
      "install writes Notify's hook entries into the tool's settings (user: your home; project: this",
      'folder), uninstall removes them, status shows them; --dry-run shows the change without making it.',
      'A PermissionRequest waits --permission-timeout seconds for your answer (--no-answers: never).',
      'See docs/agents.md.',
    ].join('\n'),
  subcommands: [{ name: 'install', flags: FLAGS }, { name: 'uninstall', flags: FLAGS }, { name: 'status' }],
  async run(args) {
    try {
      return await runHooks(args);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      console.error(`notifyctl hooks: ${error.message}`);
      return error.exitCode;
    }
  },
};

async function runHooks(args: string[]): Promise<number> {
  const parsed = parseArgs(args, FLAGS, (flag) => `unknown option '${flag}'.\n${HOOKS_USAGE}`);
  const [action, tool, extra] = parsed.positionals;
  if (extra !== undefined) throw new CliError(`unexpected argument '${extra}'.\n${HOOKS_USAGE}`);
  const scope = optionText(parsed, 'scope') ?? 'user';
  if (scope !== 'user' && scope !== 'project') throw new CliError(`--scope must be user or project.`);
  const dryRun = parsed.options.has('dry-run');
  const answerOptions = ['answer-wait', 'permission-timeout', 'no-answers'].filter((name) =>
    parsed.options.has(name),
  );
  if (answerOptions.length > 0 && action !== 'install')
    throw new CliError(`--${answerOptions[0]} belongs to install.\n${HOOKS_USAGE}`);
  if (action === 'status') {
    if (tool !== undefined && !isHookTool(tool))
      throw new CliError(`unknown tool '${tool}'.\n${HOOKS_USAGE}`);
    return status(tool === undefined ? HOOK_TOOLS : [tool]);
  }
  if (action !== 'install' && action !== 'uninstall') {
    throw new CliError(action === undefined ? HOOKS_USAGE : `unknown action '${action}'.\n${HOOKS_USAGE}`);
  }
  if (!isHookTool(tool)) {
    throw new CliError(
      `${tool === undefined ? 'a tool is required' : `unknown tool '${tool}'`}.\n${HOOKS_USAGE}`,
    );
  }
  return change(action, tool, scope, dryRun, readAnswers(parsed, tool));
}

/**
 * Permission answers for install: on by default for tools that have them, off with --no-answers; the
 * wait set by --answer-wait (the tool's timeout 10 s more) or by --permission-timeout (the tool's
 * timeout, the wait 10 s less).
 */
function readAnswers(parsed: ReturnType<typeof parseArgs>, tool: HookTool): PermissionAnswers | undefined {
  const chosen = ['answer-wait', 'permission-timeout', 'no-answers'].filter((name) =>
    parsed.options.has(name),
  );
  if (!HOOK_TARGETS[tool].answers) {
    if (chosen.length > 0)
      throw new CliError(
        `--${chosen[0]} applies to claude and codex only: ${HOOK_TARGETS[tool].label}'s hooks cannot answer its permission prompts.`,
      );
    return undefined;
  }
  if (chosen.length > 1)
    throw new CliError(`--${chosen[0]} and --${chosen[1]} exclude each other.\n${HOOKS_USAGE}`);
  if (chosen[0] === 'no-answers') return undefined;
  const wait = optionText(parsed, 'answer-wait');
  if (wait !== undefined) {
    const max = MAX_PERMISSION_TIMEOUT_SECONDS - ANSWER_MARGIN_SECONDS;
    const seconds = wholeSeconds(wait);
    if (!(seconds >= 1 && seconds <= max))
      throw new CliError(`--answer-wait must be a whole number of seconds from 1 to ${max}.`);
    return { timeoutSeconds: seconds + ANSWER_MARGIN_SECONDS };
  }
  const timeout = optionText(parsed, 'permission-timeout');
  if (timeout === undefined) return { timeoutSeconds: HOOK_TARGETS[tool].defaultPermissionTimeout };
  const seconds = wholeSeconds(timeout);
  if (!(seconds >= MIN_PERMISSION_TIMEOUT_SECONDS && seconds <= MAX_PERMISSION_TIMEOUT_SECONDS))
    throw new CliError(
      `--permission-timeout must be a whole number of seconds from ${MIN_PERMISSION_TIMEOUT_SECONDS} to ${MAX_PERMISSION_TIMEOUT_SECONDS}.`,
    );
  return { timeoutSeconds: seconds };
}

function wholeSeconds(text: string): number {
  return /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
}

async function change(
  action: 'install' | 'uninstall',
  tool: HookTool,
  scope: Scope,
  dryRun: boolean,
  answers: PermissionAnswers | undefined,
): Promise<number> {
  const target = HOOK_TARGETS[tool];
  const file = target.file(scope, process.env, process.cwd());
  const plan = withSettings(file, () =>
    action === 'install'
      ? planInstall(file, tool, target, installedCommand(tool, process.env), answers)
      : planUninstall(file, tool),
  );
  const name = `Notify's ${target.label} hooks`;
  if (!changes(plan)) {
    console.log(
      action === 'install'
        ? `${name} are already installed in ${file}; nothing changed.`
        : `${name} are not installed in ${file}; nothing changed.`,
    );
    if (action === 'install' && target.answers) console.log(answersLine(tool, scope, answers));
    const skipped = action === 'install' ? skippedEntries(tool, file, process.env) : undefined;
    if (skipped !== undefined) console.log(`Now: ${skipped}.`);
    return 0;
  }
  if (dryRun) {
    process.stdout.write(await diff(plan));
    console.log(`Dry run: ${file} was not changed.`);
    return 0;
  }
  const { backup } = applyPlan(plan);
  if (action === 'install') {
    console.log(`Installed ${name} in ${file} (${target.events.join(', ')}).`);
    if (plan.backup === 'replace') {
      console.log(`The file as it was before: ${backup} (it replaces the backup an earlier install left).`);
    } else if (backup !== undefined) {
      console.log(`The file as it was before: ${backup}`);
    }
    if (target.answers) console.log(answersLine(tool, scope, answers));
    console.log(target.nextStep);
    const skipped = skippedEntries(tool, file, process.env);
    if (skipped !== undefined) console.log(`Now: ${skipped}.`);
  } else {
    console.log(
      `Removed ${name} from ${file}${plan.after === undefined ? ' (the file held nothing else, so it is gone)' : ''}.`,
    );
    if (plan.keepsBackup) {
      console.log(
        `The backup taken at install was kept: ${backupFile(file)} (the file changed since, so it was not put back). Remove it when you no longer need it.`,
      );
    }
  }
  return 0;
}

/** What install did about permission answers, and how to change it. */
function answersLine(tool: HookTool, scope: Scope, answers: PermissionAnswers | undefined): string {
  const again = `notifyctl hooks install ${tool}${scope === 'project' ? ' --scope project' : ''}`;
  if (answers === undefined)
    return `Permission answers are off: permission prompts are answered in the terminal only. To turn them on: ${again}`;
  const wait = duration(answers.timeoutSeconds - ANSWER_MARGIN_SECONDS);
  if (tool === 'codex')
    return (
      `Permission answers are on: Codex shows its own approval dialog only once the hook returns, so the hook waits ${wait} ` +
      `for your answer from a toast, the tray, notifyctl answer or the web page, then hands the decision to that dialog in the terminal ` +
      `(the request then says "Answer in the terminal."). To wait longer: ${again} --answer-wait <seconds>. To turn them off: ${again} --no-answers`
    );
  const upTo = duration(answers.timeoutSeconds);
  return (
    `Permission answers are on: ${HOOK_TARGETS[tool].label}'s permission prompts wait up to ${upTo} for your answer ` +
    `from a toast, the tray, notifyctl answer or the web page, while its own dialog still works. To turn them off: ${again} --no-answers`
  );
}

function duration(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

function status(tools: readonly HookTool[]): number {
  for (const tool of tools) {
    const target = HOOK_TARGETS[tool];
    for (const scope of ['user', 'project'] as const) {
      const file = target.file(scope, process.env, process.cwd());
      console.log(`${tool.padEnd(7)} ${scope.padEnd(8)} ${describeHooks(tool, file)}  ${file}`);
    }
  }
  return 0;
}

/** The command `hooks install` writes here: this node, this checkout, and the port NOTIFY_PORT moves to. */
function installedCommand(tool: HookTool, env: NodeJS.ProcessEnv): string {
  return hookCommandLine(tool, process.execPath, HOOK_BUNDLE, portInForce(env));
}

/** One tool's hooks in one settings file, as `hooks status` and `doctor` say it. */
export function describeHooks(tool: HookTool, file: string, env: NodeJS.ProcessEnv = process.env): string {
  const total = HOOK_TARGETS[tool].events.length;
  const port = portInForce(env);
  let state;
  try {
    state = stateOf(file, tool, installedCommand(tool, env));
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  }
  const installedPorts = [...new Set(state.staleCommands.map(commandPort))];
  const [installedPort] = installedPorts;
  if (
    state.stale.length > 0 &&
    installedPorts.length === 1 &&
    installedPort !== port &&
    stateOf(file, tool, hookCommandLine(tool, process.execPath, HOOK_BUNDLE, installedPort)).stale.length ===
      0
  )
    return `installed for ${portWords(installedPort)}, but this shell reaches the broker on ${portWords(port)}${port === undefined ? '' : ' (NOTIFY_PORT)'}; run 'notifyctl hooks install ${tool}' where NOTIFY_PORT is the broker's port`;
  const current = HOOK_TARGETS[tool].events.filter((event) => state.current.includes(event)).length;
  const gone = state.staleCommands.flatMap(commandPaths).filter((path) => !existsSync(path));
  if (gone.length > 0)
    return `installed from a path that no longer exists (${[...new Set(gone)].join(', ')}); run 'notifyctl hooks install ${tool}' to update`;
  if (state.stale.length > 0)
    return `installed by an older Notify or from another checkout or node; run 'notifyctl hooks install ${tool}' to update`;
  if (current === 0) return 'not installed';
  if (current < total)
    return `partly installed (${current} of ${total} events); run 'notifyctl hooks install ${tool}'`;
  const skipped = skippedEntries(tool, file, env);
  return `installed (${total} events)${skipped === undefined ? '' : `; ${skipped}`}`;
}

/** Why the tool would skip some of Notify's entries in `file` (Codex: not trusted), if it would. */
function skippedEntries(tool: HookTool, file: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return HOOK_TARGETS[tool].skipped?.(file, env);
  } catch (error) {
    return `could not tell whether ${HOOK_TARGETS[tool].label} trusts them: ${(error as Error).message}`;
  }
}

/** Runs a plan, turning a malformed settings file into the person's message (nothing is written). */
function withSettings(file: string, plan: () => FilePlan): FilePlan {
  try {
    return plan();
  } catch (error) {
    if (!(error instanceof MalformedSettingsError)) throw error;
    throw new CliError(
      `${file} was left as it is: ${error.message}.\nFix or move the file, then run the command again.`,
    );
  }
}

/** A unified diff of the plan; the diff library is loaded only for a dry run. */
async function diff(plan: FilePlan): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  return createTwoFilesPatch(plan.file, plan.file, plan.before ?? '', plan.after ?? '', 'current', 'after');
}
