/** Spec "Limits": imported sounds are at most 10 MB (decimal megabytes: 10,000,000 bytes). */
export const MAX_SOUND_BYTES = 10_000_000;

export type SoundFormat = 'wav' | 'mp3';

/**
 * The format by content, never by file name: WAV is `RIFF....WAVE`; MP3 starts with an ID3v2 tag or an
 * MPEG audio frame header (11 sync bits, then a version, layer and bitrate that are not reserved).
 */
export function detectSoundFormat(bytes: Uint8Array): SoundFormat | undefined {
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE') return 'wav';
  if (bytes.length >= 10 && ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes.length >= 4 && isMpegFrameHeader(bytes)) return 'mp3';
  return undefined;
}

function isMpegFrameHeader(bytes: Uint8Array): boolean {
  const [b0, b1, b2] = [bytes[0]!, bytes[1]!, bytes[2]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0b11;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && sampleRate !== 0b11;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** Why a file cannot be imported, in a sentence for the person who chose it; undefined when it can. */
export function soundFileProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return 'the sound file is empty';
  if (bytes.length > MAX_SOUND_BYTES)
    return `the sound file is ${bytes.length} bytes; imported sounds must be at most 10 MB (${MAX_SOUND_BYTES} bytes)`;
  if (!detectSoundFormat(bytes))
    return 'the sound file is neither WAV (RIFF/WAVE) nor MP3 (ID3 tag or MPEG frame); convert it to .wav or .mp3 first';
  return undefined;
}
