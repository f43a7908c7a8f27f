import { unwatchFile, watchFile } from 'node:fs';
import { readConfig } from './config-file.js';
import type { Settings } from './settings.js';

/** Settings that need a new socket or a new identity; a change to them waits for a restart. */
const RESTART_ONLY = ['port', 'authToken'] as const;

export interface SettingsEvents {
  onReload(changed: string[]): void;
  onProblem(message: string): void;
}

/**
 * The live settings: start-time values, with hot-reloadable ones refreshed when config.json changes.
 * Polling (fs.watchFile) survives editors and atomic renames that replace the file's inode.
 */
export class SettingsSource {
  #current: Settings;
  #watching = false;

  constructor(
    private readonly file: string,
    initial: Settings,
  ) {
    this.#current = initial;
  }

  get current(): Settings {
    return this.#current;
  }

  watch(events: SettingsEvents, intervalMs = 500): void {
    this.#watching = true;
    watchFile(this.file, { interval: intervalMs, persistent: false }, () => this.reload(events));
  }

  stop(): void {
    if (this.#watching) unwatchFile(this.file);
    this.#watching = false;
  }

  reload(events: SettingsEvents): void {
    let next: Settings;
    try {
      const config = readConfig(this.file);
      if (!config) return events.onProblem(`${this.file} was removed; keeping the current settings`);
      next = config.settings;
      config.warnings.forEach((warning) => events.onProblem(`config: ${warning}`));
    } catch (error) {
      return events.onProblem(
        `config not reloaded, keeping the current settings: ${(error as Error).message}`,
      );
    }
    const previous = this.#current;
    const restartNeeded = RESTART_ONLY.filter((field) => next[field] !== previous[field]);
    for (const field of restartNeeded) {
      events.onProblem(`config: a change of ${field} takes effect after a restart`);
    }
    const merged: Settings = { ...next, port: previous.port, authToken: previous.authToken };
    const changed = (Object.keys(merged) as (keyof Settings)[]).filter(
      (field) => JSON.stringify(merged[field]) !== JSON.stringify(previous[field]),
    );
    this.#current = merged;
    if (changed.length > 0) events.onReload(changed);
  }
}
