import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { SoundEntry } from '../../client/api-types.js';
import { HttpError } from '../../client/errors.js';
import { MAX_SOUND_BYTES, soundFileProblem } from '../../domain/sound-file.js';
import { optionText } from '../notify/args.js';
import { CliError } from '../notify/failure.js';
import { printJson, printLine } from '../notify/output.js';
import { positionals, printResult, groupCommand, type Subcommand } from './api-command.js';
import type { NotifyctlCommand } from './command.js';

/** `chime     built-in  wav  61.8 kB` */
export function formatSound(sound: SoundEntry): string {
  const size =
    sound.bytes >= 1_000_000
      ? `${(sound.bytes / 1_000_000).toFixed(1)} MB`
      : `${(sound.bytes / 1000).toFixed(1)} kB`;
  return `${sound.name.padEnd(22)}  ${sound.kind === 'builtin' ? 'built-in' : 'imported'}  ${sound.format}  ${size}`;
}

/** A file name as a sound name: `Door Bell.WAV` → `door-bell`. */
export function soundNameFromFile(file: string): string {
  return basename(file, extname(file))
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64);
}

/** Reads the file and refuses, before anything is sent, what the broker would refuse. */
function readSoundFile(file: string): Buffer {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new CliError(`cannot read ${file}: ${reason}.`);
  }
  if (size > MAX_SOUND_BYTES)
    throw new CliError(
      `${file} is ${size} bytes; imported sounds must be at most 10 MB (${MAX_SOUND_BYTES} bytes).`,
    );
  const content = readFileSync(file);
  const problem = soundFileProblem(content);
  if (problem) throw new CliError(`${file}: ${problem}.`);
  return content;
}

const SUBCOMMANDS: Subcommand[] = [
  {
    name: 'list',
    synopsis: '',
    summary: 'list the built-in tones and the imported sounds',
    run: async (client, parsed) => {
      positionals(parsed, 0, 'notifyctl sounds list [--json]');
      const sounds = await client.listSounds();
      if (parsed.options.has('json')) printJson(sounds);
      else sounds.forEach((sound) => printLine(formatSound(sound)));
      return 0;
    },
  },
  {
    name: 'import',
    synopsis: '<file.wav|file.mp3> [--name NAME]',
    summary: 'copy a sound into Notify (default name: the file name)',
    flags: { '--name': { kind: 'value', name: 'name' } },
    run: async (client, parsed) => {
      const [file] = positionals(parsed, 1, 'notifyctl sounds import <file> [--name NAME]');
      const name = optionText(parsed, 'name') ?? soundNameFromFile(file!);
      const content = readSoundFile(file!);
      let sound: SoundEntry;
      try {
        sound = await client.importSound(name, content);
      } catch (error) {
        // 413 has no body: say which limit it was.
        if (error instanceof HttpError && error.status === 413)
          throw new CliError(`Error 413 ${error.statusText}: imported sounds must be at most 10 MB.`);
        throw error;
      }
      return printResult(parsed, sound, () => [
        `Imported sound "${sound.name}" (${sound.format}, ${sound.bytes} bytes).`,
      ]);
    },
  },
  {
    name: 'preview',
    synopsis: '<name>',
    summary: 'play a sound now, whatever the settings say',
    run: async (client, parsed) => {
      const [name] = positionals(parsed, 1, 'notifyctl sounds preview <name>');
      const preview = await client.previewSound(name!);
      return printResult(parsed, preview, () => [`Playing "${preview.name}" with ${preview.player}.`]);
    },
  },
  {
    name: 'remove',
    synopsis: '<name>',
    summary: 'delete an imported sound',
    run: async (client, parsed) => {
      const [name] = positionals(parsed, 1, 'notifyctl sounds remove <name>');
      const sound = await client.removeSound(name!);
      return printResult(parsed, sound, () => [`Removed sound "${sound.name}".`]);
    },
  },
];

export const soundsCommand: NotifyctlCommand = groupCommand({
  name: 'sounds',
  summary: 'list, import, preview or remove sounds',
  description: 'list, import, preview or remove sounds.',
  subcommands: SUBCOMMANDS,
});
