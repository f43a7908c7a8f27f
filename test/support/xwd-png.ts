import { crc32, deflateSync } from 'node:zlib';

/**
 * A PNG of an X Window Dump as `xwd` writes Xvfb's 24-bit screen (ZPixmap, 24 or 32 bits a pixel),
 * so a test can keep a screenshot a person opens anywhere without ImageMagick.
 */
export function xwdToPng(xwd: Buffer): Buffer {
  const field = (index: number) => xwd.readUInt32BE(index * 4);
  const [headerSize, width, height] = [field(0), field(4), field(5)];
  const [lsbFirst, bitsPerPixel, bytesPerLine] = [field(7) === 0, field(11), field(12)];
  const masks = [field(14), field(15), field(16)];
  if (bitsPerPixel !== 24 && bitsPerPixel !== 32)
    throw new Error(`xwdToPng reads 24 or 32 bits a pixel, not ${bitsPerPixel}`);
  const bytes = bitsPerPixel / 8;
  const pixels = xwd.subarray(headerSize + field(19) * 12);
  const shifts = masks.map((mask) => Math.clz32(1) - Math.clz32(mask & -mask));
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      const at = y * bytesPerLine + x * bytes;
      const value = lsbFirst ? pixels.readUIntLE(at, bytes) : pixels.readUIntBE(at, bytes);
      for (let channel = 0; channel < 3; channel++) {
        raw[row + 1 + x * 3 + channel] = (value & masks[channel]!) >>> shifts[channel]!;
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, deflate, no filter method beyond 0, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
