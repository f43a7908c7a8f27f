import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP hop between a relay and its database whose new connections can be held, as a database that
 * is still starting (or a slow network) holds them: they wait, unanswered, until let through.
 */
export interface HoldingProxy {
  port: number;
  /** Connections from now on wait. */
  hold(): void;
  /** Connections waiting now: how many. */
  readonly waiting: number;
  /** The waiting connections, and every later one, reach the database. */
  letThrough(): void;
  /** The waiting connections are closed unanswered, as by a database that failed to come back; later ones still wait. */
  refuseWaiting(): void;
  /** A connection that sends `text` from now on is cut before the database sees it, as by a server that fails mid-query. */
  cutOn(text: string): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(targetPort: number): Promise<HoldingProxy> {
  let holding = false;
  let cutting: string | undefined;
  const waiting: Socket[] = [];
  const open = new Set<Socket>();
  const pipe = (incoming: Socket): void => {
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(upstream);
    // Before the pipe's own listener, so the text never reaches the database.
    incoming.on('data', (chunk: Buffer) => {
      if (cutting !== undefined && chunk.includes(cutting)) {
        incoming.destroy();
        upstream.destroy();
      }
    });
    incoming.pipe(upstream).pipe(incoming);
    upstream.on('error', () => incoming.destroy());
    incoming.on('error', () => upstream.destroy());
    upstream.on('close', () => incoming.destroy());
    incoming.on('close', () => upstream.destroy());
  };
  const server = createServer((incoming) => {
    open.add(incoming);
    if (holding) {
      incoming.pause();
      waiting.push(incoming);
    } else pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    hold() {
      holding = true;
    },
    get waiting() {
      return waiting.length;
    },
    letThrough() {
      holding = false;
      for (const incoming of waiting.splice(0)) pipe(incoming);
    },
    cutOn(text) {
      cutting = text;
    },
    refuseWaiting() {
      for (const incoming of waiting.splice(0)) incoming.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
