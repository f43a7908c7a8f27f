import type { ProviderKind, SettingDeclaration } from './provider.js';

/**
 * The settings tables of docs/providers.md, generated from the providers' declarations
 * (`npm run docs:providers`), so the docs cannot drift from what the API and the CLI accept.
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
  const lifecycle = `Lifecycle sync: update ${kind.lifecycle.update ? 'yes' : 'no'}, clear ${kind.lifecycle.clear ? 'yes' : 'no'}.`;
  return [
    '| Setting | Type | Required | Secret | Default | What it is |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    lifecycle,
  ].join('\n');
}

function markers(id: string): [start: string, end: string] {
  return [`<!-- settings:${id}:start -->`, `<!-- settings:${id}:end -->`];
}

/** Replaces every kind's marked region; a kind without its markers is an error, not a silent skip. */
export function updateProviderDocs(markdown: string, kinds: readonly ProviderKind[]): string {
  let text = markdown;
  for (const kind of kinds) {
    const [start, end] = markers(kind.id);
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from === -1 || to < from)
      throw new Error(`docs/providers.md has no "${start}" ... "${end}" section for ${kind.id}.`);
    text = `${text.slice(0, from + start.length)}\n${settingsTable(kind)}\n${text.slice(to)}`;
  }
  return text;
}
