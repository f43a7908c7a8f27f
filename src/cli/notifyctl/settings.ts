import type { PresentationSettings, SettingsPatch } from '../../client/api-types.js';
import { PRIORITIES, type Priority } from '../../domain/priority.js';
import { CliError } from '../notify/failure.js';
import { printJson, printLine } from '../notify/output.js';
import { groupCommand, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

const ALERT_FLAGS = [
  'pauseNotifications',
  'soundsEnabled',
  'doNotDisturb',
  'playCriticalSoundsDuringDoNotDisturb',
] as const;
const FLAGS = [...ALERT_FLAGS, 'quietWhileFocused'] as const;
type Flag = (typeof FLAGS)[number];
export const SETTING_NAMES = [
  ...ALERT_FLAGS,
  'maxVisibleToasts',
  ...PRIORITIES.map((p) => `soundsByPriority.${p}`),
  'quietHours',
  'quietWhileFocused',
  'focusGraceSeconds',
];

/** `22:00-07:00 (mon tue wed thu fri), 12:00-13:00; critical still alerts` or `off`. */
function formatQuietHours(quiet: PresentationSettings['quietHours']): string {
  if (!quiet) return 'off';
  const windows = quiet.windows.map(
    ({ from, to, days }) => `${from}-${to}${days && days.length < 7 ? ` (${days.join(' ')})` : ''}`,
  );
  const zone = quiet.timeZone ? ` in ${quiet.timeZone}` : '';
  return `${windows.join(', ')}${zone}; ${quiet.minimumPriority ?? 'critical'} still alerts`;
}

/** One `name value` line per setting, names aligned. */
export function formatSettings(settings: PresentationSettings): string[] {
  const rows: [string, string][] = [
    ...ALERT_FLAGS.map((flag): [string, string] => [flag, String(settings[flag])]),
    ['maxVisibleToasts', String(settings.maxVisibleToasts)],
    ...PRIORITIES.map((p): [string, string] => [`soundsByPriority.${p}`, settings.soundsByPriority[p]]),
    ['quietHours', formatQuietHours(settings.quietHours)],
    ['quietWhileFocused', String(settings.quietWhileFocused)],
    ['focusGraceSeconds', String(settings.focusGraceSeconds)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, value]) => `${name.padEnd(width)}${value}`);
}

const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  on: true,
  off: false,
  yes: true,
  no: false,
};

/** `name=value` words to a merge patch; `default` restores a setting's default. */
export function parseAssignments(words: readonly string[]): SettingsPatch {
  if (words.length === 0)
    throw new CliError('Usage: notifyctl settings set <setting>=<value> [<setting>=<value> ...]');
  const patch: SettingsPatch = {};
  for (const word of words) {
    const equals = word.indexOf('=');
    if (equals <= 0) throw new CliError(`'${word}' is not <setting>=<value>, e.g. doNotDisturb=true.`);
    const name = word.slice(0, equals);
    const text = word.slice(equals + 1).trim();
    const reset = text.toLowerCase() === 'default';
    if ((FLAGS as readonly string[]).includes(name)) {
      const value = BOOLEANS[text.toLowerCase()];
      if (!reset && value === undefined) throw new CliError(`${name} must be true or false (or default).`);
      patch[name as Flag] = reset ? null : value!;
    } else if (name === 'maxVisibleToasts') {
      if (!reset && !/^\d+$/.test(text))
        throw new CliError('maxVisibleToasts must be an integer from 1 to 20 (or default).');
      patch.maxVisibleToasts = reset ? null : Number(text);
    } else if (name === 'focusGraceSeconds') {
      if (!reset && !/^\d+$/.test(text))
        throw new CliError(
          'focusGraceSeconds must be a whole number of seconds from 0 to 3600 (or default).',
        );
      patch.focusGraceSeconds = reset ? null : Number(text);
    } else if (
      name.startsWith('soundsByPriority.') &&
      (PRIORITIES as readonly string[]).includes(name.slice(17))
    ) {
      if (text === '') throw new CliError(`${name} needs a sound name, none, or default.`);
      patch.soundsByPriority = {
        ...patch.soundsByPriority,
        [name.slice(17) as Priority]: reset ? null : text,
      };
    } else if (name === 'quietHours') {
      patch.quietHours = reset || text.toLowerCase() === 'off' ? null : parseQuietHoursText(text);
    } else {
      throw new CliError(`unknown setting '${name}'; settings are ${SETTING_NAMES.join(', ')}.`);
    }
  }
  return patch;
}

/**
 * `quietHours=` takes the JSON of the setting, or windows for every day with critical alerting:
 * `22:00-07:00` or `22:00-07:00,12:30-13:30`. The broker checks the values.
 */
function parseQuietHoursText(text: string): SettingsPatch['quietHours'] {
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as SettingsPatch['quietHours'];
    } catch {
      throw new CliError(
        'quietHours is not valid JSON; e.g. quietHours=\'{"windows":[{"from":"22:00","to":"07:00"}]}\'.',
      );
    }
  }
  const windows = text.split(',').map((span) => {
    const match = /^\s*(\d\d:\d\d)-(\d\d:\d\d)\s*$/.exec(span);
    if (!match)
      throw new CliError(
        'quietHours must be windows like 22:00-07:00 (several separated by commas), JSON, off, or default.',
      );
    return { from: match[1]!, to: match[2]! };
  });
  return { windows };
}

function show(settings: PresentationSettings, json: boolean): number {
  if (json) printJson(settings);
  else formatSettings(settings).forEach((line) => printLine(line));
  return 0;
}

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'show',
    // `show` is the verb of every group (providers show, routes show); `get` was this one's first name.
    aliases: ['get'],
    synopsis: '',
    summary: "show the presentation settings ('get' does the same)",
    run: async (client, parsed) => {
      if (parsed.positionals.length > 0) throw new CliError('Usage: notifyctl settings show [--json]');
      return show(await client.getSettings(), parsed.options.has('json'));
    },
  },
  {
    name: 'set',
    synopsis: '<setting>=<value> ...',
    summary: 'change settings (value "default" restores one); they apply at once',
    run: async (client, parsed) =>
      show(await client.updateSettings(parseAssignments(parsed.positionals)), parsed.options.has('json')),
  },
];

export const settingsCommand: NotifyctlCommand = groupCommand({
  name: 'settings',
  summary: 'show or change the presentation settings (pause, sounds, do not disturb, toasts)',
  description: 'show or change the presentation settings.',
  subcommands: SUBCOMMANDS,
});
