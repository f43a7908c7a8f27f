import { request, type ClientRequest } from 'node:http';
import { createParser } from 'eventsource-parser';
import { Arrivals } from '../../test/support/arrivals.js';

/**
 * One open event stream of the relay (a laptop's /v1/events or a phone's /v1/inbox/stream) for the
 * load bench: the first event of a kind naming a notification id is kept with its arrival time
 * (performance.now), and a waiter for it is woken.
 */
export class LiveStream {
  private readonly arrived = new Map<string, { at: number; data: Record<string, unknown> }>();
  private readonly waiting = new Map<
    string,
    (found: { at: number; data: Record<string, unknown> }) => void
  >();
  private readonly firsts = new Arrivals<{ at: number; data: Record<string, unknown> }>();
  private readonly request: ClientRequest;
  /** Set when the stream ended or failed while the bench still wanted it. */
  failure: string | undefined;
  private closing = false;

  private constructor(
    port: number,
    path: string,
    headers: Record<string, string>,
    private readonly kind: string,
    private readonly idField: string,
    opened: (error?: Error) => void,
  ) {
    let chunkAt = 0;
    const parser = createParser({
      onEvent: (event) => {
        if (event.event !== this.kind) return;
        const data = JSON.parse(event.data) as Record<string, unknown>;
        const id = data[this.idField] as string;
        if (this.arrived.has(id)) return;
        const found = { at: chunkAt, data };
        this.arrived.set(id, found);
        this.firsts.add(found);
        this.waiting.get(id)?.(found);
        this.waiting.delete(id);
      },
    });
    this.request = request(
      { host: '127.0.0.1', port, path, headers: { ...headers, accept: 'text/event-stream' }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          opened(new Error(`${path} answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          chunkAt = performance.now();
          parser.feed(chunk);
        });
        response.on('end', () => this.fail('ended'));
        response.on('error', () => this.fail('failed'));
        opened();
      },
    );
    this.request.on('error', (error) => {
      this.fail(error.message);
      opened(error);
    });
    this.request.end();
  }

  static open(
    port: number,
    path: string,
    headers: Record<string, string>,
    kind: string,
    idField: string,
  ): Promise<LiveStream> {
    return new Promise((resolve, reject) => {
      const stream: LiveStream = new LiveStream(port, path, headers, kind, idField, (error) =>
        error ? reject(error) : resolve(stream),
      );
    });
  }

  private fail(why: string): void {
    if (!this.closing) this.failure ??= why;
  }

  /** The arrival of the event naming `id`, or undefined after `timeoutMs`. */
  next(id: string, timeoutMs: number): Promise<{ at: number; data: Record<string, unknown> } | undefined> {
    const known = this.arrived.get(id);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(id, (found) => {
        clearTimeout(timer);
        resolve(found);
      });
    });
  }

  /** The next event naming an id not named before, whatever the id (the first not yet taken). */
  nextNew(timeoutMs: number): Promise<{ at: number; data: Record<string, unknown> }> {
    return this.firsts.next(`a ${this.kind} event naming a new id`, timeoutMs);
  }

  /** Forgets what arrived (a new phase starts). */
  forget(): void {
    this.arrived.clear();
  }

  close(): void {
    this.closing = true;
    this.request.destroy();
  }
}
