import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
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
    throw new MalformedConfigError(`${file} is not valid JSON (${(error as Error).message})`);
  }
  try {
    return normalizeConfig(raw, generateToken);
  } catch (error) {
    throw new MalformedConfigError(`${file}: ${(error as Error).message}`);
  }
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
    writeSync(fd, `${JSON.stringify(document, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
