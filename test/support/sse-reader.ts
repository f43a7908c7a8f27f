import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/**
 * A raw reader of GET /v1/stream for tests: keeps the text as received and splits it into frames, so
 * tests assert the wire format itself, not what a client library made of it.
 */
export class SseReader {
  text = '';
  frames: SseFrame[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  readonly ended: Promise<void>;
  readonly #request: ClientRequest;
  #waiters: (() => void)[] = [];
  #response?: IncomingMessage;

  constructor(port: number, headers: Record<string, string>, path = '/v1/stream') {
    let done!: () => void;
    this.ended = new Promise((resolve) => (done = resolve));
    this.#request = request({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
      this.#response = response;
      this.status = response.statusCode ?? 0;
      this.headers = response.headers;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => this.#feed(chunk));
      response.on('end', done);
      response.on('error', done);
      this.#notify();
    });
    this.#request.on('error', done);
    this.#request.end();
  }

  get events(): SseFrame[] {
    return this.frames.filter((frame) => frame.event !== undefined);
  }

  /** Resolves when `predicate` holds, checked on every chunk; rejects after `ms`. */
  async until(predicate: (reader: SseReader) => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this)) {
      if (Date.now() > deadline)
        throw new Error(`stream condition not met in ${ms} ms; received:\n${this.text}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  pause(): void {
    this.#response?.pause();
  }

  resume(): void {
    this.#response?.resume();
  }

  close(): void {
    this.#request.destroy();
  }

  #feed(chunk: string): void {
    this.text += chunk;
    const blocks = this.text.split('\n\n');
    blocks.pop();
    this.frames = blocks.map(parseFrame);
    this.#notify();
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    waiters.forEach((wake) => wake());
  }
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    const match = /^(id|event|data): (.*)$/.exec(line);
    if (match) frame[match[1] as 'id' | 'event' | 'data'] = match[2];
  }
  return frame;
}
