import type { Readable, Writable } from 'node:stream';

/** Where the relay's messages go and what a command reads: the process's own, or a test's. */
export interface RelayIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}
