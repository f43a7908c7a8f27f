import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SoundFormat } from '../domain/sound-file.js';
import type { Logger } from '../log/logger.js';
import { SoundFailures, type SoundFailureRun } from './sound-failures.js';

/** A program that plays a file, and the arguments that go before the file's path. */
export interface PlayerProgram {
  program: string;
  args: readonly string[];
  formats: readonly SoundFormat[];
}

/** In order of preference (platform-facts.md "Sound"); aplay and the PulseAudio/PipeWire tools read WAV only. */
const LINUX_PLAYERS: readonly PlayerProgram[] = [
  { program: 'pw-play', args: [], formats: ['wav'] },
  { program: 'paplay', args: [], formats: ['wav'] },
  { program: 'aplay', args: ['-q'], formats: ['wav'] },
  { program: 'ffplay', args: ['-nodisp', '-autoexit', '-loglevel', 'error'], formats: ['wav', 'mp3'] },
];
const MAC_PLAYERS: readonly PlayerProgram[] = [{ program: 'afplay', args: [], formats: ['wav', 'mp3'] }];

export function playersFor(platform: NodeJS.Platform): readonly PlayerProgram[] {
  if (platform === 'darwin') return MAC_PLAYERS;
  if (platform === 'win32') return [];
  return LINUX_PLAYERS;
}

/** The first player of the platform that exists and reads the format; undefined when none does. */
export function choosePlayer(
  format: SoundFormat,
  platform: NodeJS.Platform,
  available: (program: string) => boolean,
): PlayerProgram | undefined {
  return playersFor(platform).find((player) => player.formats.includes(format) && available(player.program));
}

/** Whether an executable of that name is in one of PATH's folders. */
export function onPath(program: string, path: string | undefined): boolean {
  for (const folder of (path ?? '').split(delimiter)) {
    if (!folder) continue;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** A player that is still running after this long is stuck (a sound server that never answers). */
const PLAYER_TIME_LIMIT_MS = 15_000;

/** How a player run ended: `failure` completes "<program> <failure>", e.g. "paplay exited with status 1". */
export type PlayerOutcome = { played: true } | { played: false; failure: string };

/**
 * Runs a player on a file, with an argument array (never a shell), to its end or the time limit. A
 * player that exits with a status other than 0 did not play: paplay without a sound server exits 1.
 * In the background, a running player never holds the process's exit.
 */
export function runPlayer(
  player: PlayerProgram,
  file: string,
  env: NodeJS.ProcessEnv,
  background = false,
): Promise<PlayerOutcome> {
  return new Promise((resolve) => {
    const child = spawn(player.program, [...player.args, file], { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), PLAYER_TIME_LIMIT_MS).unref();
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ played: false, failure: `failed to start (${error.message})` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ played: true });
      else if (code !== null) resolve({ played: false, failure: `exited with status ${code}` });
      else resolve({ played: false, failure: `was stopped by ${signal ?? 'a signal'}` });
    });
    if (background) child.unref();
  });
}

/** A started play: the player's name, and how its run ends. */
export interface Playing {
  player: string;
  outcome: Promise<PlayerOutcome>;
}

export interface SoundPlayerOptions {
  log: Logger;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  clock?: () => number;
}

/**
 * Plays a file through the first available player, spawned with an argument array (never a shell).
 * No player is one WARN line until a player shows up again, never an error; a player that fails (no
 * sound server) is one WARN line until a sound plays again.
 */
export class SoundPlayer {
  #warnedMissing = false;
  #warnedFailing = false;
  readonly #failures = new SoundFailures();

  constructor(private readonly options: SoundPlayerOptions) {}

  /** The plays that failed since the last one that played; undefined when the last play played. */
  failing(): SoundFailureRun | undefined {
    return this.#failures.current();
  }

  /** Starts playing; undefined when no player can play the format. */
  play(file: string, format: SoundFormat): Playing | undefined {
    const env = this.options.env ?? process.env;
    const platform = this.options.platform ?? process.platform;
    const player = choosePlayer(format, platform, (program) => onPath(program, env['PATH']));
    if (!player) {
      if (!this.#warnedMissing) this.options.log.warn(missingPlayerMessage(format, platform));
      this.#warnedMissing = true;
      return undefined;
    }
    this.#warnedMissing = false;
    const outcome = runPlayer(player, file, env, true).then((ended) => {
      if (ended.played) {
        this.#warnedFailing = false;
        this.#failures.played();
        return ended;
      }
      this.#failures.failed(player.program, ended.failure, (this.options.clock ?? Date.now)());
      if (!this.#warnedFailing) {
        this.#warnedFailing = true;
        this.options.log.warn(
          `sounds are not playing: ${player.program} ${ended.failure} (${file}); is a sound server (PipeWire or PulseAudio) running in this session?`,
        );
      }
      return ended;
    });
    return { player: player.program, outcome };
  }
}

export function missingPlayerMessage(format: SoundFormat, platform: NodeJS.Platform): string {
  const names = playersFor(platform)
    .filter((player) => player.formats.includes(format))
    .map((player) => player.program);
  if (names.length === 0) return `sounds are off: Notify has no sound player for ${platform}`;
  return `sounds are off: no player for ${format.toUpperCase()} found on PATH (looked for ${names.join(', ')})`;
}
