import { survivingCommandLine } from './hook-command-line.js';

/**
 * Notify's entries in a tool's `hooks` object (`{"<Event>": [{"matcher"?, "hooks": [{"type":
 * "command", "command", ...}]}]}`): added as a group of their own per event, recognized by the
 * command, and removed without touching anything else. Pure: works on parsed settings.
 */

/**
 * Our command, whatever checkout or node it was installed from: `... notify-hook.cjs' <tool>`, for
 * PermissionRequest with its answer wait after it (`--answer-wait=<seconds>`), bare (older installs,
 * a waiting PermissionRequest) or inside the shell loop that outlives an early stop signal.
 */
export function isOurCommand(command: unknown, tool: string): boolean {
  return (
    typeof command === 'string' &&
    new RegExp(`notify-hook\\.cjs['"]?\\s+${tool}(\\s+--answer-wait=[0-9]+)?(\\s*$|;)`).test(command)
  );
}

/**
 * Whether an entry runs `invocation` the way this Notify writes it: a waiting PermissionRequest bare
 * with its answer wait, every other entry in the loop that outlives an early stop signal. A bare
 * entry of an older install is not current: it dies of a SIGTERM that comes while Node starts.
 */
function isCurrent(command: unknown, invocation: string): boolean {
  if (command === survivingCommandLine(invocation)) return true;
  return typeof command === 'string' && command !== invocation && withoutAnswerWait(command) === invocation;
}

/** Our command without its answer wait: installed with or without answers, it is the same install. */
export function withoutAnswerWait(command: unknown): unknown {
  return typeof command === 'string' ? command.replace(/\s+--answer-wait=[0-9]+\s*$/, '') : command;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function groupsOf(hooks: Json, event: string): unknown[] | undefined {
  const groups = hooks[event];
  return Array.isArray(groups) ? groups : undefined;
}

function ourEntries(group: unknown, tool: string): Json[] {
  if (!isObject(group) || !Array.isArray(group['hooks'])) return [];
  return group['hooks'].filter(
    (entry): entry is Json => isObject(entry) && isOurCommand(entry['command'], tool),
  );
}

export interface InstalledState {
  /** Events that run our hook as this Notify writes `command` (the answer wait aside). */
  current: string[];
  /** Events that run our hook with another command (an older checkout or node). */
  stale: string[];
  /** Those other commands, each once. */
  staleCommands: string[];
}

export function installedState(settings: Json, tool: string, command: string): InstalledState {
  const state: InstalledState = { current: [], stale: [], staleCommands: [] };
  const hooks = settings['hooks'];
  if (!isObject(hooks)) return state;
  for (const event of Object.keys(hooks)) {
    const entries = (groupsOf(hooks, event) ?? []).flatMap((group) => ourEntries(group, tool));
    if (entries.length === 0) continue;
    const current = entries.every((entry) => isCurrent(entry['command'], command));
    (current ? state.current : state.stale).push(event);
    for (const entry of entries) {
      const other = withoutAnswerWait(entry['command']);
      if (other !== command && typeof other === 'string' && !state.staleCommands.includes(other))
        state.staleCommands.push(other);
    }
  }
  return state;
}

/**
 * Settings with our hook on every event of `events`: an entry with another command or timeout is
 * brought up to date in place (fields the person added stay), a missing one (`entry(event)`) is
 * appended as a group of its own. Returns a copy; `settings` is kept.
 */
export function withOurHooks(
  settings: Json,
  tool: string,
  events: readonly string[],
  entry: (event: string) => Json,
): Json {
  const next = structuredClone(settings);
  const hooks = isObject(next['hooks']) ? next['hooks'] : {};
  for (const event of events) {
    const groups = groupsOf(hooks, event) ?? [];
    const existing = groups.flatMap((group) => ourEntries(group, tool));
    const wanted = entry(event);
    if (existing.length > 0) {
      for (const each of existing) Object.assign(each, wanted);
    } else {
      groups.push({ hooks: [wanted] });
    }
    hooks[event] = groups;
  }
  next['hooks'] = hooks;
  return next;
}

/**
 * Settings without any of our hooks. A group, an event or the `hooks` object left empty by the
 * removal goes too, so that uninstall gives back the file install found; containers that were
 * empty before stay.
 */
export function withoutOurHooks(settings: Json, tool: string): Json {
  const next = structuredClone(settings);
  const hooks = next['hooks'];
  if (!isObject(hooks)) return next;
  let removedAny = false;
  for (const event of Object.keys(hooks)) {
    const groups = groupsOf(hooks, event);
    if (groups === undefined) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      const ours = ourEntries(group, tool);
      if (ours.length === 0) {
        kept.push(group);
        continue;
      }
      const entries = (group as Json)['hooks'] as unknown[];
      const others = entries.filter((entry) => !ours.includes(entry as Json));
      if (others.length > 0) kept.push({ ...(group as Json), hooks: others });
    }
    if (kept.length === groups.length && kept.every((group, index) => group === groups[index])) continue;
    removedAny = true;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (removedAny && Object.keys(hooks).length === 0) delete next['hooks'];
  return next;
}
