import type { Settings } from '../config/settings.js';
import { failureRunText, type SoundFailureRun } from './sound-failures.js';
import { choosePlayer, missingPlayerMessage, onPath } from './sound-player.js';

/** Whether one way of getting a person's attention works now, and what it goes through or why not. */
export interface PartStatus {
  on: boolean;
  detail: string;
}

/** What the broker can show and play: the start banner's lines and `GET /v1/presentation`. */
export interface PresentationReport {
  toasts: PartStatus;
  tray: PartStatus;
  sounds: PartStatus;
}

export type DevicePart = 'toasts' | 'tray';

const STARTING: PartStatus = { on: false, detail: 'starting' };
const NO_BUS = 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)';

/**
 * Collects what the toast display and the tray report as they start, come and go, so the banner and
 * doctor can say it instead of a log line only. Sounds are worked out when asked: the player is looked
 * up on PATH at each play, settings change at any time, and plays that failed since the last one that
 * played (no sound server) say so rather than the player's name.
 */
export class PresentationStatus {
  readonly #parts: Record<DevicePart, PartStatus> = { toasts: STARTING, tray: STARTING };
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly settings: () => Pick<Settings, 'soundsEnabled' | 'pauseNotifications'>,
    private readonly soundFailures: () => SoundFailureRun | undefined = () => undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    if (platform !== 'linux') this.set('tray', false, `Notify has no tray icon on ${platform}`);
    else if (!env['DBUS_SESSION_BUS_ADDRESS']) this.set('tray', false, NO_BUS);
  }

  set(part: DevicePart, on: boolean, detail: string): void {
    this.#parts[part] = { on, detail };
    if (this.#settled()) this.#waiting.splice(0).forEach((resolve) => resolve());
  }

  /** Resolves once toasts and tray have both said whether they work, or after `ms` (a bus that hangs). */
  settled(ms: number): Promise<void> {
    if (this.#settled()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.#waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  report(): PresentationReport {
    const settings = this.settings();
    const toasts = this.#parts.toasts;
    return {
      toasts:
        toasts.on && settings.pauseNotifications
          ? { on: false, detail: `paused (pauseNotifications is true); shown on ${toasts.detail}` }
          : toasts,
      tray: this.#parts.tray,
      sounds: this.#sounds(settings),
    };
  }

  #sounds(settings: Pick<Settings, 'soundsEnabled' | 'pauseNotifications'>): PartStatus {
    const desktop = this.platform === 'darwin' || this.platform === 'win32';
    if (!desktop && !this.env['DBUS_SESSION_BUS_ADDRESS']) return { on: false, detail: NO_BUS };
    const player = choosePlayer('wav', this.platform, (program) => onPath(program, this.env['PATH']));
    if (!player)
      return {
        on: false,
        detail: missingPlayerMessage('wav', this.platform).replace(/^sounds are off: /, ''),
      };
    if (!settings.soundsEnabled) return { on: false, detail: 'soundsEnabled is false' };
    if (settings.pauseNotifications) return { on: false, detail: 'paused (pauseNotifications is true)' };
    const failing = this.soundFailures();
    // A player installed since then has not failed yet.
    if (failing?.program === player.program) return { on: false, detail: failureRunText(failing) };
    return { on: true, detail: `played through ${player.program}` };
  }

  #settled(): boolean {
    return this.#parts.toasts !== STARTING && this.#parts.tray !== STARTING;
  }
}
