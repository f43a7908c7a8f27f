import type { AlertEvent, AlertFeed } from '../broker/alert-feed.js';
import type { ChangeFeed, NotificationChange } from '../broker/change-feed.js';
import type { Clock } from '../broker/clock.js';
import type { Settings } from '../config/settings.js';
import type { NotificationRecord } from '../domain/notification.js';
import { chooseSound } from '../domain/sound-choice.js';
import { quietHoldsBack } from '../domain/quiet-hours.js';
import { NO_SOUND } from '../domain/sound-name.js';
import { SoundBurstLimiter, soundAllowed, updateSounds } from '../domain/sound-policy.js';
import type { Logger } from '../log/logger.js';
import type { SoundLibrary } from './sound-library.js';
import type { SoundPlayer } from './sound-player.js';

export interface SoundPresenterDeps {
  settings: () => Settings;
  library: SoundLibrary;
  player: SoundPlayer;
  clock: Clock;
  log: Logger;
  /** Snoozes' ends and reminders: each plays the notification's sound again. */
  alerts?: AlertFeed;
}

/**
 * Plays a sound after a notification is created, or updated in place to a higher priority or to a type
 * that needs a person (never for a status change), when
 * the settings allow it and no sound of the same or a higher priority played in the last two seconds. The ChangeFeed calls in on the
 * request path, so the decision is pure and quick and the file lookup and spawn happen afterwards.
 */
export class SoundPresenter {
  readonly #limiter = new SoundBurstLimiter();

  constructor(private readonly deps: SoundPresenterDeps) {}

  readonly onChange = (change: NotificationChange): void => {
    if (change.kind === 'status') return;
    const settings = this.deps.settings();
    const { record } = change;
    if (change.kind === 'updated' && !updateSounds(change.previous, record, settings.types)) return;
    this.#sound(record);
  };

  /** A snooze ended or a reminder is due: the sound plays again, under the same rules. */
  readonly onAlert = (event: AlertEvent): void => {
    if (event.kind === 'alert') this.#sound(event.record);
  };

  #sound(record: NotificationRecord): void {
    const settings = this.deps.settings();
    const now = this.deps.clock();
    if (!soundAllowed(settings, record.priority)) return;
    // Snoozed, or quiet hours below their priority: stored and shown in the tray, but silent.
    if (record.snoozedUntil !== undefined && record.snoozedUntil > now) return;
    if (quietHoldsBack(settings.quietHours, record.priority, now)) return;
    const name = chooseSound(record, settings.types, settings.soundsByPriority);
    if (name === undefined || !this.#limiter.tryAcquire(now, record.priority)) return;
    setImmediate(() => this.#play(name, record));
  }

  #play(name: string, record: NotificationRecord): void {
    let sound = this.deps.library.find(name);
    if (!sound) {
      const fallback = this.deps.settings().soundsByPriority[record.priority];
      this.deps.log.warn(
        `sound "${name}" of type ${record.type} is not a built-in tone or an imported sound; playing the ${record.priority} default (${fallback})`,
      );
      if (fallback === NO_SOUND) return;
      sound = this.deps.library.find(fallback);
      if (!sound) return;
    }
    this.deps.player.play(sound.file, sound.entry.format);
  }
}

/**
 * Whether sounds can play at all: on Linux only inside a desktop session (conventions.md "Desktop"),
 * which a session bus address marks. A bus that is set but does not answer, or has no notification
 * server, takes the toasts away, not the sounds.
 */
export function soundsAvailable(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  return platform === 'darwin' || platform === 'win32' || Boolean(env['DBUS_SESSION_BUS_ADDRESS']);
}

/**
 * Subscribes the presenter to the change feed when sounds are available; when they are not, the toast
 * presenter's one WARN line ("toasts and sounds are off: ...") says so for both. Returns the function
 * that unsubscribes.
 */
export function startSounds(
  changes: ChangeFeed,
  deps: SoundPresenterDeps,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): () => void {
  if (!soundsAvailable(env, platform)) return () => {};
  const presenter = new SoundPresenter(deps);
  const unsubscribe = [changes.subscribe(presenter.onChange), deps.alerts?.subscribe(presenter.onAlert)];
  return () => unsubscribe.forEach((stop) => stop?.());
}
