import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectSoundFormat, MAX_SOUND_BYTES, soundFileProblem } from './sound-file.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('detectSoundFormat (by content, not by name)', () => {
  const TABLE: [what: string, content: Buffer, format: 'wav' | 'mp3' | undefined][] = [
    ['a RIFF/WAVE header', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '), 'wav'],
    ['an ID3v2 tag', bytes('ID3', [4, 0, 0, 0, 0, 0, 0]), 'mp3'],
    ['an MPEG-1 layer III frame header', bytes([0xff, 0xfb, 0x90, 0x64]), 'mp3'],
    ['an MPEG-2 layer III frame header', bytes([0xff, 0xf3, 0x48, 0xc4]), 'mp3'],
    ['RIFF that is not WAVE (AVI)', bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'), undefined],
    ['a frame sync with a reserved layer', bytes([0xff, 0xf9, 0x90, 0x64]), undefined],
    ['a frame sync with a reserved version', bytes([0xff, 0xeb, 0x90, 0x64]), undefined],
    ['a frame sync with a bad bitrate', bytes([0xff, 0xfb, 0xf0, 0x64]), undefined],
    ['an Ogg stream', bytes('OggS', [0, 2, 0, 0, 0, 0, 0, 0]), undefined],
    ['a shell script named .wav', bytes('#!/bin/sh\nrm -rf ~\n'), undefined],
    ['a truncated RIFF header', bytes('RIFF', [0, 0]), undefined],
  ];
  for (const [what, content, format] of TABLE) {
    it(`reads ${what} as ${format ?? 'no sound'}`, () => {
      assert.equal(detectSoundFormat(content), format);
    });
  }
});

describe('soundFileProblem', () => {
  it('refuses an empty file, an oversized file and a file of another kind, naming the rule', () => {
    assert.equal(soundFileProblem(Buffer.alloc(0)), 'the sound file is empty');
    const big = Buffer.alloc(MAX_SOUND_BYTES + 1);
    big.write('RIFF', 0, 'latin1');
    big.write('WAVE', 8, 'latin1');
    assert.match(soundFileProblem(big)!, /at most 10 MB \(10000000 bytes\)/);
    assert.match(soundFileProblem(bytes('<html>hello</html>'))!, /neither WAV \(RIFF\/WAVE\) nor MP3/);
  });

  it('accepts a WAV of exactly 10 MB', () => {
    const limit = Buffer.alloc(MAX_SOUND_BYTES);
    limit.write('RIFF', 0, 'latin1');
    limit.write('WAVE', 8, 'latin1');
    assert.equal(soundFileProblem(limit), undefined);
  });
});
