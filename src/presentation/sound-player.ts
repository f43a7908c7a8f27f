import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SoundFormat } from '../domain/sound-file.js';
import type { Logger } from '../log/logger.js';

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

export interface SoundPlayerOptions {
  log: Logger;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * Plays a file through the first available player, spawned with an argument array (never a shell).
 * No player is one WARN line until a player shows up again, never an error.
 */
export class SoundPlayer {
  #warnedMissing = false;

  constructor(private readonly options: SoundPlayerOptions) {}

  /** Starts playing and returns the player's name, or undefined when no player can play the format. */
  play(file: string, format: SoundFormat): string | undefined {
    const env = this.options.env ?? process.env;
    const platform = this.options.platform ?? process.platform;
    const player = choosePlayer(format, platform, (program) => onPath(program, env['PATH']));
    if (!player) {
      if (!this.#warnedMissing) this.options.log.warn(missingPlayerMessage(format, platform));
      this.#warnedMissing = true;
      return undefined;
    }
    this.#warnedMissing = false;
    const child = spawn(player.program, [...player.args, file], { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), PLAYER_TIME_LIMIT_MS).unref();
    child.once('error', (error) => {
      clearTimeout(timer);
      this.options.log.warn(`sound not played: ${player.program} failed to start (${error.message})`);
    });
    child.once('exit', () => clearTimeout(timer));
    child.unref();
    return player.program;
  }
}

export function missingPlayerMessage(format: SoundFormat, platform: NodeJS.Platform): string {
  const names = playersFor(platform)
    .filter((player) => player.formats.includes(format))
    .map((player) => player.program);
  if (names.length === 0) return `sounds are off: Notify has no sound player for ${platform}`;
  return `sounds are off: no player for ${format.toUpperCase()} found on PATH (looked for ${names.join(', ')})`;
}
