import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, as one text. */
export function caughtText(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** A stream whose written lines land in `lines`, one entry each, as a person reads them. */
export function lineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      lines.push(...chunk.toString().replace(/\n$/, '').split('\n'));
      done();
    },
  });
}
