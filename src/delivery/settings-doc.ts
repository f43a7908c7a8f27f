import type { ProviderKind, SettingDeclaration } from './provider.js';

/**
 * The generated parts of docs/providers.md (`npm run docs:providers`): the overview of every kind and
 * each kind's settings table, from the providers' declarations, so the docs cannot drift from what
 * the API and the CLI accept.
 */

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function typeOf(setting: SettingDeclaration): string {
  if (setting.type === 'url') return 'http(s) URL';
  return setting.type === 'enum' && setting.choices
    ? `one of ${setting.choices.map((c) => `\`${c}\``).join(', ')}`
    : setting.type;
}

export type Capability = 'send' | 'update' | 'clear' | 'answer';

/** What a kind can do: every kind sends; update and clear from its lifecycle; answer from listen(). */
export function capabilities(kind: ProviderKind): Capability[] {
  return [
    'send',
    ...(kind.lifecycle.update ? (['update'] as const) : []),
    ...(kind.lifecycle.clear ? (['clear'] as const) : []),
    ...(kind.listen !== undefined || kind.answersByOwnStream ? (['answer'] as const) : []),
  ];
}

/** What a kind whose buttons answer through the relay (ntfy) says in its Answer column and line. */
const THROUGH_RELAY = 'with a paired relay';

export function capabilitiesLine(kind: ProviderKind): string {
  const can = [...capabilities(kind), ...(kind.answerButtons ? [`answer (${THROUGH_RELAY})`] : [])];
  return can.length === 1 ? 'Capabilities: send only.' : `Capabilities: ${can.join(', ')}.`;
}

export function settingsTable(kind: ProviderKind): string {
  const rows = kind.settings.map((s) =>
    [
      `\`${s.name}\``,
      typeOf(s),
      s.required ? 'yes' : 'no',
      s.secret ? 'yes' : 'no',
      s.default === undefined ? '' : `\`${String(s.default)}\``,
      cell(s.help),
    ].join(' | '),
  );
  return [
    '| Setting | Type | Required | Secret | Default | What it is |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    capabilitiesLine(kind),
  ].join('\n');
}

function names(settings: readonly SettingDeclaration[]): string {
  return settings.length === 0 ? 'none' : settings.map((s) => `\`${s.name}\``).join(', ');
}

/** One row per kind: what it can do, which settings are secret, which the person must give. */
export function overviewTable(kinds: readonly ProviderKind[]): string {
  const yes = (can: boolean) => (can ? 'yes' : 'no');
  const rows = kinds.map((kind) => {
    const can = capabilities(kind);
    return [
      `${kind.title} (\`${kind.id}\`)`,
      ...(['send', 'update', 'clear'] as const).map((c) => yes(can.includes(c))),
      kind.answerButtons && !can.includes('answer') ? THROUGH_RELAY : yes(can.includes('answer')),
      names(kind.settings.filter((s) => s.secret)),
      names(kind.settings.filter((s) => s.required && s.default === undefined)),
    ].join(' | ');
  });
  return [
    '| Kind | Send | Update | Clear | Answer | Secret settings | What you give it |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

function replaceRegion(text: string, id: string, content: string, what: string): string {
  const start = `<!-- ${id}:start -->`;
  const end = `<!-- ${id}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from)
    throw new Error(`docs/providers.md has no "${start}" ... "${end}" section ${what}.`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** Replaces the overview and every kind's marked region; a missing marker is an error, not a silent skip. */
export function updateProviderDocs(markdown: string, kinds: readonly ProviderKind[]): string {
  let text = replaceRegion(markdown, 'providers:overview', overviewTable(kinds), 'for the overview');
  for (const kind of kinds) {
    text = replaceRegion(text, `settings:${kind.id}`, settingsTable(kind), `for ${kind.id}`);
  }
  return text;
}
