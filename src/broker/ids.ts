import { randomFillSync } from 'node:crypto';

/** Random bytes are drawn from the system in blocks: one call per 512 ids rather than one per id. */
const RANDOM_POOL_BYTES = 4096;

/**
 * UUIDv7 ids (RFC 9562): 48-bit millisecond time, then a 12-bit sequence that keeps ids made in the same
 * millisecond increasing, then random bits. Sorting ids sorts by creation time.
 */
export function createIdGenerator(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let sequence = 0;
  const pool = Buffer.alloc(RANDOM_POOL_BYTES);
  let used = RANDOM_POOL_BYTES;
  const bytes = Buffer.alloc(16);
  return () => {
    let ms = now();
    if (ms <= lastMs) {
      ms = lastMs;
      sequence++;
      if (sequence > 0xfff) {
        ms = ++lastMs;
        sequence = 0;
      }
    } else {
      lastMs = ms;
      sequence = 0;
    }
    if (used === RANDOM_POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    bytes.writeUIntBE(ms, 0, 6);
    bytes.writeUInt16BE(0x7000 | sequence, 6);
    pool.copy(bytes, 8, used, used + 8);
    used += 8;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
