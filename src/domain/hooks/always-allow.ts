/**
 * What "Always allow" may grant: exactly what Claude Code's own "Yes, and always allow …" option
 * grants, never more. Claude Code sends `permission_suggestions` that may hold a mode change beside
 * the rule (`setMode` to `acceptEdits`: after it, `touch` and even `rm` ran with no prompt), while its
 * terminal option applies the rule and leaves the mode as it was. So only rules that allow
 * (`addRules` with behavior `allow`) and working folders (`addDirectories`) are kept; a mode change,
 * a rule that denies or asks, a removal and any kind Claude Code adds later are left out.
 */

/** The longest action label the broker takes (docs/answers.md). */
const MAX_LABEL = 40;

export interface AlwaysAllow {
  /** The suggestions to hand back as `updatedPermissions`. */
  grants: object[];
  /** What they allow, in a person's words: "`npm test` in this project". */
  says: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The part of Claude Code's suggestions its terminal option applies, or undefined when none is left. */
export function alwaysAllowOf(suggestions: readonly object[] | undefined): AlwaysAllow | undefined {
  const grants: object[] = [];
  const phrases: string[] = [];
  for (const suggestion of suggestions ?? []) {
    const phrase = describeGrant(suggestion as Json);
    if (phrase === undefined) continue;
    grants.push(suggestion);
    phrases.push(phrase);
  }
  return grants.length === 0 ? undefined : { grants, says: phrases.join(' and ') };
}

/**
 * The button: what it allows, when that fits a label (without the backticks if only that way), else a
 * pointer to the line the message ends with (alwaysAllowLine).
 */
export function alwaysAllowLabel(always: AlwaysAllow): string {
  return fittingLabel(always) ?? 'Always allow (see below)';
}

/** The message's last line, when the button could not say it all. */
export function alwaysAllowLine(always: AlwaysAllow): string | undefined {
  return fittingLabel(always) === undefined ? `"Always allow" allows ${always.says}.` : undefined;
}

function fittingLabel(always: AlwaysAllow): string | undefined {
  const label = `Always allow ${always.says}`;
  return [label, label.replaceAll('`', '')].find(fitsLabel);
}

function fitsLabel(label: string): boolean {
  // eslint-disable-next-line no-control-regex -- a label is one line of plain text
  return Array.from(label).length <= MAX_LABEL && !/[\u0000-\u001f\u007f-\u009f]/.test(label);
}

function describeGrant(suggestion: Json): string | undefined {
  const where = destination(suggestion['destination']);
  if (where === undefined) return undefined;
  if (suggestion['type'] === 'addRules' && suggestion['behavior'] === 'allow') {
    const rules = suggestion['rules'];
    if (!Array.isArray(rules) || rules.length === 0) return undefined;
    const named = rules.map(ruleText);
    if (named.some((rule) => rule === undefined)) return undefined;
    return `${named.join(', ')} ${where}`;
  }
  if (suggestion['type'] === 'addDirectories') {
    const folders = suggestion['directories'];
    if (!Array.isArray(folders) || folders.length === 0) return undefined;
    if (!folders.every((folder) => typeof folder === 'string' && folder !== '')) return undefined;
    return `access to ${(folders as string[]).join(', ')} ${where}`;
  }
  return undefined;
}

/** `npm test` for a Bash rule, `WebFetch(domain:example.com)` for another tool's, `Read` for a whole tool. */
function ruleText(rule: unknown): string | undefined {
  if (!isObject(rule) || typeof rule['toolName'] !== 'string' || rule['toolName'] === '') return undefined;
  const content = rule['ruleContent'];
  if (content === undefined) return `\`${rule['toolName']}\``;
  if (typeof content !== 'string' || content === '') return undefined;
  return rule['toolName'] === 'Bash' ? `\`${content}\`` : `\`${rule['toolName']}(${content})\``;
}

/** Claude Code's settings destinations, as the person knows them. */
function destination(value: unknown): string | undefined {
  switch (value) {
    case 'localSettings':
    case 'projectSettings':
      return 'in this project';
    case 'userSettings':
      return 'in all your projects';
    case 'session':
    case 'cliArg':
      return 'in this session';
    default:
      return undefined;
  }
}
