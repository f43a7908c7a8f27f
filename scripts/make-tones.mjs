#!/usr/bin/env node
// Synthesizes Notify's built-in tones (chime, ping, alert, knock) as 16-bit mono 44.1 kHz WAV files.
// Pure arithmetic, no randomness beyond a fixed-seed generator: the same script always writes the
// same bytes, so the checked-in files can be re-made and compared.
//   node scripts/make-tones.mjs [output-folder]   (default: assets/sounds)
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const RATE = 44100;
const PEAK = 0.7; // about -3 dBFS: clearly audible, never clipping
const TAU = 2 * Math.PI;

/** A bell-like note: a few inharmonic partials with an exponential decay. */
function bell(t, frequency, decay) {
  if (t < 0) return 0;
  const partials = [
    [1, 1],
    [2.0, 0.3],
    [3.01, 0.1],
  ];
  const tone = partials.reduce(
    (sum, [ratio, level]) => sum + level * Math.sin(TAU * frequency * ratio * t),
    0,
  );
  return tone * Math.exp(-t * decay) * Math.min(1, t / 0.003);
}

/** A short beep with soft edges, so it never clicks. */
function beep(t, frequency, length) {
  if (t < 0 || t > length) return 0;
  const edge = Math.min(1, t / 0.006, (length - t) / 0.006);
  return (Math.sin(TAU * frequency * t) + 0.18 * Math.sin(TAU * 3 * frequency * t)) * edge;
}

/** Deterministic noise (a linear congruential generator with a fixed seed). */
function noiseSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 31 - 1;
  };
}

/** A knock on wood: a falling low thump plus a very short, smoothed burst of noise. */
function knockVoice() {
  const noise = noiseSource(0x6b6e6f63);
  let smoothed = 0;
  return (t) => {
    if (t < 0) return 0;
    const pitch = 120 + 90 * Math.exp(-t * 40);
    const body = Math.sin(TAU * pitch * t) * Math.exp(-t * 32);
    smoothed += 0.25 * (noise() - smoothed);
    const click = smoothed * Math.exp(-t * 180) * 1.5;
    return (body + click) * Math.min(1, t / 0.001);
  };
}

const firstKnock = knockVoice();
const secondKnock = knockVoice();

const TONES = {
  // Two rising bell notes (C6, G6): a friendly "something new".
  chime: { seconds: 0.7, voice: (t) => bell(t, 1046.5, 6) + 0.8 * bell(t - 0.12, 1568, 6) },
  // One short high bell (A6): the lightest tone.
  ping: { seconds: 0.3, voice: (t) => bell(t, 1760, 14) },
  // Three quick beeps, up and back down (B5, E6, B5): needs attention now.
  alert: {
    seconds: 0.45,
    voice: (t) => beep(t, 988, 0.09) + beep(t - 0.14, 1319, 0.09) + beep(t - 0.28, 988, 0.09),
  },
  // Two low knocks: someone at the door.
  knock: { seconds: 0.4, voice: (t) => firstKnock(t) + 0.85 * secondKnock(t - 0.16) },
};

function render({ seconds, voice }) {
  const count = Math.round(seconds * RATE);
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) samples[i] = voice(i / RATE);
  const fade = Math.round(0.015 * RATE);
  for (let i = 0; i < fade; i++) samples[count - 1 - i] *= i / fade;
  const loudest = samples.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  return samples.map((value) => (value / loudest) * PEAK);
}

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((value, i) => data.writeInt16LE(Math.round(value * 32767), i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16); // PCM format chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const output = process.argv[2] ?? fileURLToPath(new URL('../assets/sounds/', import.meta.url));
mkdirSync(output, { recursive: true });
for (const [name, tone] of Object.entries(TONES)) {
  writeFileSync(join(output, `${name}.wav`), wav(render(tone)));
}
process.stdout.write(`wrote ${Object.keys(TONES).join(', ')} to ${output}\n`);
