import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SoundFormat } from '../../src/domain/sound-file.js';
import { DailyFileLogger } from '../../src/log/logger.js';
import { BUILTIN_SOUNDS_DIR } from '../../src/presentation/sound-library.js';
import { choosePlayer, SoundPlayer } from '../../src/presentation/sound-player.js';
import { createStandInPlayers } from '../support/stand-in-player.js';

describe('choosePlayer', () => {
  const TABLE: [
    platform: NodeJS.Platform,
    installed: string[],
    format: SoundFormat,
    expected: string | undefined,
  ][] = [
    ['linux', ['pw-play', 'paplay', 'aplay', 'ffplay'], 'wav', 'pw-play'],
    ['linux', ['paplay', 'aplay', 'ffplay'], 'wav', 'paplay'],
    ['linux', ['aplay', 'ffplay'], 'wav', 'aplay'],
    ['linux', ['ffplay'], 'wav', 'ffplay'],
    ['linux', ['pw-play', 'paplay', 'aplay', 'ffplay'], 'mp3', 'ffplay'],
    ['linux', ['pw-play', 'paplay', 'aplay'], 'mp3', undefined],
    ['linux', [], 'wav', undefined],
    ['freebsd', ['aplay'], 'wav', 'aplay'],
    ['darwin', ['afplay', 'ffplay'], 'mp3', 'afplay'],
    ['darwin', ['afplay'], 'wav', 'afplay'],
    ['darwin', ['ffplay'], 'wav', undefined],
    ['win32', ['ffplay'], 'wav', undefined],
  ];
  for (const [platform, installed, format, expected] of TABLE) {
    it(`picks ${expected ?? 'nothing'} for ${format} on ${platform} with [${installed.join(', ')}]`, () => {
      assert.equal(
        choosePlayer(format, platform, (program) => installed.includes(program))?.program,
        expected,
      );
    });
  }
});

describe('SoundPlayer', () => {
  const tone = join(BUILTIN_SOUNDS_DIR, 'chime.wav');

  it('spawns the first player on PATH with the file as its own argument', async () => {
    const players = createStandInPlayers(['aplay', 'ffplay']);
    const logs = mkdtempSync(join(tmpdir(), 'notify-log-'));
    try {
      const player = new SoundPlayer({
        log: new DailyFileLogger(logs),
        env: { PATH: players.folder },
        platform: 'linux',
      });
      assert.equal(player.play(tone, 'wav')?.player, 'aplay');
      assert.equal(player.play('/tmp/it has spaces; rm -rf ~.mp3', 'mp3')?.player, 'ffplay');
      const calls = await players.waitForCalls(2);
      assert.deepEqual(
        calls.sort((a, b) => a[0]!.localeCompare(b[0]!)),
        [
          ['aplay', '-q', tone],
          ['ffplay', '-nodisp', '-autoexit', '-loglevel', 'error', '/tmp/it has spaces; rm -rf ~.mp3'],
        ],
      );
    } finally {
      players.cleanup();
      rmSync(logs, { recursive: true, force: true });
    }
  });

  it('writes one WARN line, not an error, however often no player is found', () => {
    const logs = mkdtempSync(join(tmpdir(), 'notify-log-'));
    const empty = mkdtempSync(join(tmpdir(), 'notify-empty-path-'));
    try {
      const player = new SoundPlayer({
        log: new DailyFileLogger(logs),
        env: { PATH: empty },
        platform: 'linux',
      });
      for (let i = 0; i < 5; i++) assert.equal(player.play(tone, 'wav'), undefined);
      const lines = readdirSync(logs).flatMap((file) =>
        readFileSync(join(logs, file), 'utf8').trim().split('\n'),
      );
      assert.equal(lines.length, 1);
      assert.match(
        lines[0]!,
        /\[WARN\] sounds are off: no player for WAV found on PATH \(looked for pw-play, paplay, aplay, ffplay\)$/,
      );
    } finally {
      rmSync(logs, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
