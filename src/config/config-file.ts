import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  realpathSync,
  type Stats,
  mkdirSync,
  openSync,
  readFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { MalformedConfigError } from './malformed-config-error.js';
import { normalizeConfig, type NormalizedConfig } from './settings.js';
import { attributesOf, replaceFile } from './replace-file.js';
import { jsonSyntaxPlace } from '../domain/json-syntax-place.js';

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Far above any real config.json; a bigger file is refused rather than read into memory. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads and normalizes config.json; undefined when the file does not exist yet. */
export function readConfig(file: string): NormalizedConfig | undefined {
  const text = readConfigText(file);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MalformedConfigError(`${file} is not valid JSON (${jsonSyntaxPlace(error as Error, text)})`);
  }
  try {
    return normalizeConfig(raw, generateToken);
  } catch (error) {
    throw new MalformedConfigError(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Opened without blocking and checked on the open descriptor: a FIFO in the file's place would block a
 * plain open (and the start with it) until a writer came, and a device could be endless. A symlink to a
 * regular file is read through.
 */
function readConfigText(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MalformedConfigError(`${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new MalformedConfigError(
        `${file} is not a regular file (it is ${kindOf(stat)}); replace it with a regular file, or remove it to have one created`,
      );
    }
    if (stat.size > MAX_CONFIG_BYTES) {
      throw new MalformedConfigError(`${file} is larger than 1 MiB; a config file is a few hundred bytes`);
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof MalformedConfigError) throw error;
    throw new MalformedConfigError(`${file} cannot be read: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a file';
}

/**
 * The broker's start: read (or create) config.json, fill defaults and write it back atomically, 0600.
 * A malformed file is never overwritten.
 */
export function loadOrCreateConfig(file: string): NormalizedConfig {
  const config = readConfig(file) ?? normalizeConfig({}, generateToken);
  writeConfigAtomically(file, config.document);
  return config;
}

/**
 * Written atomically (temp file and rename), 0600 whatever it was, keeping its owner. When config.json
 * is a symlink, its target is replaced and the link stays.
 */
export function writeConfigAtomically(file: string, document: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const target = resolveLink(file);
  replaceFile(target, `${JSON.stringify(document, null, 2)}\n`, { ...attributesOf(target), mode: 0o600 });
}

/** The file a symlinked config.json points to; the path itself when it is no link or not there yet. */
function resolveLink(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw error;
  }
}
