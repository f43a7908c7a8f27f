import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The server side of RFC 6455, small enough to read: the handshake, text frames both ways (a client's
 * are masked), ping/pong and the close handshake. The stand-ins for Slack's Socket Mode and Discord's
 * Gateway speak it to the broker's WebSocket client (Node's own), so the client is the real one.
 */

export interface ServerSocket {
  /** The request line's path and query. */
  url: string;
  /** Every text message the client sent, in order. */
  received: string[];
  send(text: string): void;
  /** Sends a close frame with `code` and ends the connection. */
  close(code?: number): void;
  /** Resolves with the close code once the connection is gone, whoever ended it. */
  closed: Promise<number>;
  isOpen(): boolean;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(length)]);
  return Buffer.concat([header, payload]);
}

function bigLength(length: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(length));
  return buffer;
}

/** Upgrades requests whose path `accepts` to WebSockets and hands each to `onOpen`. */
export function acceptWebSockets(
  server: Server,
  accepts: (url: string) => boolean,
  onOpen: (socket: ServerSocket, request: IncomingMessage) => void,
): void {
  server.on('upgrade', (request: IncomingMessage, stream: Duplex) => {
    const key = request.headers['sec-websocket-key'];
    if (!accepts(request.url ?? '') || typeof key !== 'string') {
      stream.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const acceptKey = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    stream.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${acceptKey}\r\n\r\n`,
    );
    onOpen(serve(stream, request.url ?? ''), request);
  });
}

function serve(stream: Duplex, url: string): ServerSocket {
  let open = true;
  let closeCode = 1006;
  let pending = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  const received: string[] = [];
  const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(closeCode)));
  stream.on('close', () => (open = false));
  stream.on('error', () => (open = false));
  const write = (opcode: number, payload: Buffer) => {
    if (open) stream.write(frame(opcode, payload));
  };
  const close = (code = 1000) => {
    if (!open) return;
    closeCode = code;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    write(0x8, payload);
    open = false;
    stream.end();
  };
  stream.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (pending.length < 2) return;
      const opcode = pending[0]! & 0x0f;
      const fin = (pending[0]! & 0x80) !== 0;
      const masked = (pending[1]! & 0x80) !== 0;
      let length = pending[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (pending.length < 4) return;
        length = pending.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (pending.length < 10) return;
        length = Number(pending.readBigUInt64BE(2));
        offset = 10;
      }
      const maskOffset = offset;
      if (masked) offset += 4;
      if (pending.length < offset + length) return;
      const payload = Buffer.from(pending.subarray(offset, offset + length));
      if (masked) for (let i = 0; i < payload.length; i += 1) payload[i]! ^= pending[maskOffset + (i % 4)]!;
      pending = pending.subarray(offset + length);
      if (opcode === 0x8) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (open) close(code);
        closeCode = code;
        return;
      }
      if (opcode === 0x9) write(0xa, payload);
      if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if (fin) {
          received.push(Buffer.concat(fragments).toString('utf8'));
          fragments = [];
        }
      }
    }
  });
  return {
    url,
    received,
    send: (text) => write(0x1, Buffer.from(text, 'utf8')),
    close,
    closed,
    isOpen: () => open,
  };
}
