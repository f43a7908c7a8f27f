import { readConfig, writeConfigAtomically } from './config-file.js';
import { MalformedConfigError } from './malformed-config-error.js';
import { normalizeConfig, type NormalizedConfig, type Settings } from './settings.js';
import type { SettingsSource } from './settings-source.js';

/** The change would make config.json invalid; the message names the field. Nothing was written. */
export class RefusedConfigChangeError extends Error {
  override name = 'RefusedConfigChangeError';
}

/** config.json on disk is broken (a hand edit); it is never overwritten, so no change can be made. */
export class ConfigUnavailableError extends Error {
  override name = 'ConfigUnavailableError';
}

type Document = Record<string, unknown>;

/**
 * Changes config.json for the API: reads the file as it is now (unknown fields included), applies the
 * change, validates the result exactly as loading does, writes it atomically and makes the live
 * settings re-read it at once. A change that loading would warn about is refused rather than reset.
 */
export class ConfigEditor {
  constructor(
    private readonly file: string,
    private readonly settings: SettingsSource,
  ) {}

  edit(change: (document: Document) => void, check?: (next: Settings) => void): NormalizedConfig {
    const before = this.#read();
    const document = structuredClone(before.document);
    change(document);
    let after: NormalizedConfig;
    try {
      after = normalizeConfig(document, () => this.settings.current.authToken);
    } catch (error) {
      if (error instanceof MalformedConfigError) throw new RefusedConfigChangeError(error.message);
      throw error;
    }
    const added = after.warnings.find((warning) => !before.warnings.includes(warning));
    if (added) throw new RefusedConfigChangeError(added.replace(/; (using .*|(entry )?ignored)$/, ''));
    check?.(after.settings);
    writeConfigAtomically(this.file, after.document);
    this.settings.refresh();
    return after;
  }

  #read(): NormalizedConfig {
    const current = this.settings.current;
    let config: NormalizedConfig | undefined;
    try {
      config = readConfig(this.file);
    } catch (error) {
      throw new ConfigUnavailableError(
        `${(error as Error).message}; fix config.json by hand (the broker keeps its current settings meanwhile), then try again`,
      );
    }
    config ??= normalizeConfig({ port: current.port }, () => current.authToken);
    // The running broker's token stays the file's token, even when someone deleted it from the file.
    if (config.tokenGenerated) config.document['authToken'] = current.authToken;
    return config;
  }
}
