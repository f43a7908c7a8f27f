import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { MalformedConfigError, normalizeConfig, type NormalizedConfig } from './settings.js';

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Reads and normalizes config.json; undefined when the file does not exist yet. */
export function readConfig(file: string): NormalizedConfig | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MalformedConfigError(`${file} cannot be read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new MalformedConfigError(`${file} is not valid JSON (${syntaxErrorPlace(error as Error, text)})`);
  }
  try {
    return normalizeConfig(raw, generateToken);
  } catch (error) {
    throw new MalformedConfigError(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Where the JSON breaks, as line and column. V8's own message quotes the text around the error, which
 * can be the token, so it is never passed on.
 */
function syntaxErrorPlace(error: Error, text: string): string {
  const position = /position (\d+)/.exec(error.message);
  if (!position) return 'an unexpected character; check quotes, commas and braces';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `syntax error at line ${line}, column ${column}`;
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

/** Write to a sibling temp file, fsync, rename: a reader sees the old file or the new one, never half. */
export function writeConfigAtomically(file: string, document: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    // A leftover temp file keeps its old mode on open; the token must never sit in a readable file.
    fchmodSync(fd, 0o600);
    writeSync(fd, `${JSON.stringify(document, null, 2)}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw error;
  }
}
