import { statSync } from 'node:fs';
import { readConfig } from './config-file.js';
import type { Settings } from './settings.js';

export interface SettingsEvents {
  onReload(changed: string[]): void;
  onProblem(message: string): void;
}

/**
 * The live settings: every value but the port is refreshed when config.json changes.
 * Polling the file's identity (inode, size, times) survives editors and atomic renames that replace
 * the inode. The first identity is taken when the settings are read, not when watching starts
 * (fs.watchFile takes its own first look later, so a change made in between went unnoticed for good).
 */
export class SettingsSource {
  #current: Settings;
  /** The port config.json held at start: a later change of it is what needs a restart. */
  readonly #filePort: number;
  #identity: string;
  #poll: NodeJS.Timeout | undefined;
  #events: SettingsEvents = { onReload: () => {}, onProblem: () => {} };

  /** `port`, when given, is the port in force instead of the file's (notifyd --port or NOTIFY_PORT). */
  constructor(
    private readonly file: string,
    initial: Settings,
    port?: number,
  ) {
    this.#identity = identityOf(file);
    this.#filePort = initial.port;
    this.#current = port === undefined ? initial : { ...initial, port };
  }

  get current(): Settings {
    return this.#current;
  }

  watch(events: SettingsEvents, intervalMs = 500): void {
    this.#events = events;
    clearInterval(this.#poll);
    this.#poll = setInterval(() => {
      const identity = identityOf(this.file);
      if (identity === this.#identity) return;
      this.#identity = identity;
      this.reload(events);
    }, intervalMs);
    this.#poll.unref();
  }

  stop(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** Re-reads the file now, reporting to the watcher's events: a change the broker wrote applies at once. */
  refresh(): void {
    this.reload(this.#events);
  }

  reload(events: SettingsEvents): void {
    const previous = this.#current;
    let next: Settings;
    try {
      const config = readConfig(this.file);
      if (!config) return events.onProblem(`${this.file} was removed; keeping the current settings`);
      next = config.settings;
      config.warnings.forEach((warning) => events.onProblem(`config: ${warning}`));
      if (config.tokenGenerated) {
        // A token made here would live only in memory, and every client reading the file would fail.
        events.onProblem('config: authToken was removed from the file; keeping the current token');
        next = { ...next, authToken: previous.authToken };
      }
    } catch (error) {
      return events.onProblem(
        `config not reloaded, keeping the current settings: ${(error as Error).message}`,
      );
    }
    if (next.port !== this.#filePort)
      events.onProblem('config: a change of port takes effect after a restart');
    // The listening socket stays; everything else, the token included, applies at once.
    const merged: Settings = { ...next, port: previous.port };
    // Both sides' fields: a setting removed from the file (quietHours: null) changed too.
    const fields = new Set([...Object.keys(previous), ...Object.keys(merged)] as (keyof Settings)[]);
    const changed = [...fields].filter(
      (field) => JSON.stringify(merged[field]) !== JSON.stringify(previous[field]),
    );
    this.#current = merged;
    if (changed.length > 0) events.onReload(changed);
  }
}

/** What changes when the file is written, replaced or removed. */
function identityOf(file: string): string {
  const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : 'missing';
}
