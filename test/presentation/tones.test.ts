import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { BUILTIN_TONES } from '../../src/domain/sound-name.js';
import { BUILTIN_SOUNDS_DIR } from '../../src/presentation/sound-library.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/make-tones.mjs', import.meta.url));

/** `sox --i` and `sox FILE -n stat` describe a file the way an audio tool reads it. */
function describeTone(file: string) {
  const info = execFileSync('sox', ['--i', file], { encoding: 'utf8' });
  // stat reports on stderr.
  const stat = spawnSync('sox', [file, '-n', 'stat'], { encoding: 'utf8' }).stderr;
  const field = (text: string, label: string) => new RegExp(`${label}\\s*:\\s*(.+)`).exec(text)?.[1]?.trim();
  const number = (label: string) => Number(field(stat, label));
  return {
    channels: field(info, 'Channels'),
    rate: field(info, 'Sample Rate'),
    encoding: field(info, 'Sample Encoding'),
    seconds: Number(/= (\d+) samples/.exec(field(info, 'Duration') ?? '')?.[1]) / 44100,
    peak: Math.max(Math.abs(number('Maximum amplitude')), Math.abs(number('Minimum amplitude'))),
    rms: number('RMS {5}amplitude'),
    frequency: number('Rough {3}frequency'),
  };
}

describe('built-in tones', () => {
  const described = new Map(
    BUILTIN_TONES.map((name) => [name, describeTone(join(BUILTIN_SOUNDS_DIR, `${name}.wav`))]),
  );

  for (const name of BUILTIN_TONES) {
    it(`${name} is a 16-bit mono 44.1 kHz PCM WAV of a fraction of a second, loud but never clipping`, () => {
      const tone = described.get(name)!;
      assert.equal(tone.channels, '1');
      assert.equal(tone.rate, '44100');
      assert.equal(tone.encoding, '16-bit Signed Integer PCM');
      assert.ok(tone.seconds >= 0.2 && tone.seconds < 1, `duration ${tone.seconds} s`);
      assert.ok(tone.peak >= 0.6 && tone.peak <= 0.75, `peak ${tone.peak}`);
      assert.ok(tone.rms >= 0.05, `RMS ${tone.rms}: audible, not near silence`);
    });
  }

  it('are four different sounds (different bytes, pitch and length)', () => {
    const files = BUILTIN_TONES.map((name) =>
      readFileSync(join(BUILTIN_SOUNDS_DIR, `${name}.wav`)).toString('base64'),
    );
    assert.equal(new Set(files).size, 4);
    const signatures = [...described.values()].map((tone) => `${tone.frequency}/${tone.seconds}`);
    assert.equal(new Set(signatures).size, 4);
  });

  it('are exactly what scripts/make-tones.mjs synthesizes', () => {
    const folder = mkdtempSync(join(tmpdir(), 'notify-tones-'));
    try {
      execFileSync(process.execPath, [SCRIPT, folder], { stdio: 'ignore' });
      for (const name of BUILTIN_TONES) {
        assert.ok(
          readFileSync(join(folder, `${name}.wav`)).equals(
            readFileSync(join(BUILTIN_SOUNDS_DIR, `${name}.wav`)),
          ),
          `${name}.wav differs from the script's output; run node scripts/make-tones.mjs`,
        );
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
