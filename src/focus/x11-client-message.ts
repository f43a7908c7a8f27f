import { createConnection, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';

/** The X protocol's pieces this needs: little-endian requests over the display's local socket. */
const INTERN_ATOM = 16;
const SEND_EVENT = 25;
const GET_INPUT_FOCUS = 43;
const CLIENT_MESSAGE = 33;
const SUBSTRUCTURE_NOTIFY = 0x80000;
const SUBSTRUCTURE_REDIRECT = 0x100000;
/** EWMH source indication 2: a pager, which a window manager obeys without focus-stealing rules. */
const SOURCE_PAGER = 2;
const TIMEOUT_MS = 3000;

const pad4 = (n: number): number => (4 - (n % 4)) % 4;

/** `:0` or `:0.0` → display number 0; undefined for a remote display (host:N), which this never uses. */
function localDisplayNumber(display: string): string | undefined {
  return /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(display)?.[1];
}

/** The MIT-MAGIC-COOKIE-1 of this display from $XAUTHORITY (or ~/.Xauthority); none when there is none. */
function cookieFor(displayNumber: string, env: NodeJS.ProcessEnv): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(env['XAUTHORITY'] ?? join(homedir(), '.Xauthority'));
  } catch {
    return undefined;
  }
  const host = hostname();
  for (let at = 0; at + 2 <= file.length;) {
    const family = file.readUInt16BE(at);
    at += 2;
    const fields: Buffer[] = [];
    for (let i = 0; i < 4 && at + 2 <= file.length; i++) {
      const length = file.readUInt16BE(at);
      fields.push(file.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    }
    const [address, number, name, data] = fields;
    // FamilyLocal (256) names this host; FamilyWild (65535) any.
    const here = family === 65535 || (family === 256 && address?.toString() === host);
    if (here && number?.toString() === displayNumber && name?.toString() === 'MIT-MAGIC-COOKIE-1')
      return data;
  }
  return undefined;
}

function setupRequest(cookie: Buffer | undefined): Buffer {
  const name = cookie ? Buffer.from('MIT-MAGIC-COOKIE-1') : Buffer.alloc(0);
  const data = cookie ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0);
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(name.length, 6);
  head.writeUInt16LE(data.length, 8);
  return Buffer.concat([head, name, Buffer.alloc(pad4(name.length)), data, Buffer.alloc(pad4(data.length))]);
}

function internAtom(name: string): Buffer {
  const bytes = Buffer.from(name);
  const request = Buffer.alloc(8 + bytes.length + pad4(bytes.length));
  request.writeUInt8(INTERN_ATOM, 0);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt16LE(bytes.length, 4);
  bytes.copy(request, 8);
  return request;
}

function activateEvent(root: number, window: number, atom: number): Buffer {
  const request = Buffer.alloc(44);
  request.writeUInt8(SEND_EVENT, 0);
  request.writeUInt16LE(11, 2);
  request.writeUInt32LE(root, 4);
  request.writeUInt32LE(SUBSTRUCTURE_NOTIFY | SUBSTRUCTURE_REDIRECT, 8);
  request.writeUInt8(CLIENT_MESSAGE, 12);
  request.writeUInt8(32, 13);
  request.writeUInt32LE(window, 16);
  request.writeUInt32LE(atom, 20);
  request.writeUInt32LE(SOURCE_PAGER, 24);
  return request;
}

/** Reads exactly the bytes asked for, in order, from a socket. */
class Reader {
  #buffered = Buffer.alloc(0);
  #wanted: { bytes: number; resolve: (data: Buffer) => void } | undefined;

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffered = Buffer.concat([this.#buffered, chunk]);
      this.#serve();
    });
  }

  read(bytes: number): Promise<Buffer> {
    return new Promise((resolve) => {
      this.#wanted = { bytes, resolve };
      this.#serve();
    });
  }

  #serve(): void {
    const wanted = this.#wanted;
    if (!wanted || this.#buffered.length < wanted.bytes) return;
    this.#wanted = undefined;
    const data = this.#buffered.subarray(0, wanted.bytes);
    this.#buffered = this.#buffered.subarray(wanted.bytes);
    wanted.resolve(data);
  }
}

/**
 * Asks the window manager to activate `window` the EWMH way, without xdotool: a `_NET_ACTIVE_WINDOW`
 * client message to the root window over the display's local socket. Resolves once the server has
 * processed it (a GetInputFocus round trip); rejects with a sentence when it could not.
 */
export async function sendActivateMessage(
  window: number,
  display: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const number = localDisplayNumber(display);
  if (number === undefined) throw new Error(`the display ${display} is not a local one`);
  const socket = createConnection(`/tmp/.X11-unix/X${number}`);
  const failed = new Promise<never>((_, reject) => {
    socket.once('error', () => reject(new Error(`no X server answers on ${display}`)));
    socket.setTimeout(TIMEOUT_MS, () => reject(new Error(`the X server on ${display} did not answer`)));
  });
  const reader = new Reader(socket);
  const talk = async () => {
    socket.write(setupRequest(cookieFor(number, env)));
    const head = await reader.read(8);
    const rest = await reader.read(head.readUInt16LE(6) * 4);
    if (head[0] !== 1) throw new Error(`the X server on ${display} refused the connection`);
    // The first screen's root: after the fixed part, the vendor string and the pixmap formats.
    const root = rest.readUInt32LE(32 + rest.readUInt16LE(16) + pad4(rest.readUInt16LE(16)) + 8 * rest[21]!);
    socket.write(internAtom('_NET_ACTIVE_WINDOW'));
    const atomReply = await reader.read(32);
    if (atomReply[0] !== 1) throw new Error('the X server did not name _NET_ACTIVE_WINDOW');
    socket.write(activateEvent(root, window, atomReply.readUInt32LE(8)));
    const focus = Buffer.alloc(4);
    focus.writeUInt8(GET_INPUT_FOCUS, 0);
    focus.writeUInt16LE(1, 2);
    socket.write(focus);
    const reply = await reader.read(32);
    if (reply[0] !== 1) throw new Error(`the X server refused the message (error ${reply[1]})`);
  };
  try {
    await Promise.race([talk(), failed]);
  } finally {
    socket.destroy();
  }
}
