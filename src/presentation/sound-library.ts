import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { detectSoundFormat, soundFileProblem, type SoundFormat } from '../domain/sound-file.js';
import { BUILTIN_TONES, isBuiltinTone, isSoundName, NO_SOUND, SOUND_NAME } from '../domain/sound-name.js';

/** The tones made by scripts/make-tones.mjs (dist/src/presentation → repository root). */
export const BUILTIN_SOUNDS_DIR = fileURLToPath(new URL('../../../assets/sounds/', import.meta.url));

export interface SoundEntry {
  name: string;
  kind: 'builtin' | 'imported';
  format: SoundFormat;
  bytes: number;
}

export interface SoundFile {
  entry: SoundEntry;
  file: string;
}

const FORMATS: readonly SoundFormat[] = ['wav', 'mp3'];

export class SoundNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`sound "${name}" not found`);
  }
}

/**
 * The built-in tones and the sounds a person imported into `{dataDir}/sounds`. An imported sound is the
 * file `<name>.wav` or `<name>.mp3` there: the name is checked against a strict grammar and the format
 * read from the content, so nothing else ever lands in the folder.
 */
export class SoundLibrary {
  constructor(
    readonly folder: string,
    private readonly builtinFolder: string = BUILTIN_SOUNDS_DIR,
  ) {}

  list(): SoundEntry[] {
    const imported = this.#importedNames().flatMap((name) => this.#imported(name)?.entry ?? []);
    return [...BUILTIN_TONES.map((name) => this.#builtin(name).entry), ...imported];
  }

  find(name: string): SoundFile | undefined {
    if (!isSoundName(name)) return undefined;
    return isBuiltinTone(name) ? this.#builtin(name) : this.#imported(name);
  }

  get(name: string): SoundFile {
    const found = this.find(name);
    if (!found) throw new SoundNotFoundError(name);
    return found;
  }

  /** Checks everything before the first write; a refused file leaves the folder as it was. */
  import(name: string, content: Buffer): { entry: SoundEntry; replaced: boolean } {
    if (!isSoundName(name) || name === NO_SOUND) {
      throw new InvalidRequestError(
        `sound name "${name}" is not allowed; use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit (not "none")`,
      );
    }
    if (isBuiltinTone(name))
      throw new InvalidRequestError(
        `"${name}" is a built-in tone; choose another name for the imported sound`,
      );
    const problem = soundFileProblem(content);
    if (problem) throw new InvalidRequestError(problem);
    const format = detectSoundFormat(content)!;
    const replaced = this.#imported(name) !== undefined;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const target = join(this.folder, `${name}.${format}`);
    const temp = join(this.folder, `.${name}.${process.pid}.tmp`);
    try {
      writeFileSync(temp, content, { mode: 0o600 });
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    for (const other of FORMATS)
      if (other !== format) rmSync(join(this.folder, `${name}.${other}`), { force: true });
    return { entry: { name, kind: 'imported', format, bytes: content.length }, replaced };
  }

  remove(name: string): SoundEntry {
    if (isSoundName(name) && isBuiltinTone(name))
      throw new InvalidRequestError(`"${name}" is a built-in tone and cannot be removed`);
    const found = isSoundName(name) ? this.#imported(name) : undefined;
    if (!found) throw new SoundNotFoundError(name);
    rmSync(found.file, { force: true });
    return found.entry;
  }

  #builtin(name: string): SoundFile {
    const file = join(this.builtinFolder, `${name}.wav`);
    return { file, entry: { name, kind: 'builtin', format: 'wav', bytes: sizeOf(file) } };
  }

  #imported(name: string): SoundFile | undefined {
    for (const format of FORMATS) {
      const file = join(this.folder, `${name}.${format}`);
      if (existsSync(file)) return { file, entry: { name, kind: 'imported', format, bytes: sizeOf(file) } };
    }
    return undefined;
  }

  #importedNames(): string[] {
    let files: string[];
    try {
      files = readdirSync(this.folder);
    } catch {
      return [];
    }
    const names = files
      .map((file) => /^(.+)\.(wav|mp3)$/.exec(file)?.[1])
      .filter((name): name is string => name !== undefined && SOUND_NAME.test(name) && !isBuiltinTone(name));
    return [...new Set(names)].sort();
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
