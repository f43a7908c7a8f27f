import type { Settings } from '../config/settings.js';
import { ConflictError, UnavailableError } from '../domain/errors.js';
import type { SoundEntry, SoundLibrary } from '../presentation/sound-library.js';
import { missingPlayerMessage, type SoundPlayer } from '../presentation/sound-player.js';

export interface SoundAdminDeps {
  library: SoundLibrary;
  player: SoundPlayer;
  settings: () => Settings;
}

/** A player still running after this long is playing: a player without a sound server fails at once. */
const STILL_PLAYING_MS = 2_000;

/** Listing, importing, previewing and removing sounds for the API. */
export class SoundAdmin {
  constructor(private readonly deps: SoundAdminDeps) {}

  list(): SoundEntry[] {
    return this.deps.library.list();
  }

  import(name: string, content: unknown): { entry: SoundEntry; replaced: boolean } {
    return this.deps.library.import(name, Buffer.isBuffer(content) ? content : Buffer.alloc(0));
  }

  /**
   * Plays the sound now, whatever the settings say: a person asked to hear it. Answers once the player
   * ended, or has played for a while (a long imported song), so that a player that cannot play is a
   * 503, not a 200 nobody heard.
   */
  async preview(name: string): Promise<{ name: string; player: string }> {
    const { file, entry } = this.deps.library.get(name);
    const playing = this.deps.player.play(file, entry.format);
    if (!playing) {
      throw new UnavailableError(
        `${missingPlayerMessage(entry.format, process.platform).replace('sounds are off: ', '')}; install one (for example pipewire-bin, pulseaudio-utils, alsa-utils or ffmpeg)`,
      );
    }
    const outcome = await Promise.race([
      playing.outcome,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), STILL_PLAYING_MS).unref()),
    ]);
    if (outcome && !outcome.played) {
      throw new UnavailableError(
        `${playing.player} could not play "${name}": it ${outcome.failure}; is a sound server (PipeWire or PulseAudio) running in this session?`,
      );
    }
    return { name, player: playing.player };
  }

  /** A sound a type or a priority still names is kept: removing it would silently change what plays. */
  remove(name: string): SoundEntry {
    // A built-in tone: the library refuses it with its own message.
    if (this.deps.library.get(name).entry.kind === 'builtin') return this.deps.library.remove(name);
    const users = usersOf(name, this.deps.settings());
    if (users.length > 0) {
      throw new ConflictError(
        `sound "${name}" is in use by ${users.join(', ')}; choose another sound there first`,
      );
    }
    return this.deps.library.remove(name);
  }
}

function usersOf(name: string, settings: Settings): string[] {
  const byType = Object.entries(settings.types)
    .filter(([, definition]) => definition['sound'] === name)
    .map(([id]) => `types.${id}`);
  const byPriority = Object.entries(settings.soundsByPriority)
    .filter(([, sound]) => sound === name)
    .map(([priority]) => `soundsByPriority.${priority}`);
  return [...byType, ...byPriority];
}
