/**
 * A WebSocket read one message at a time, for the channels that carry answers back over a socket
 * (Slack's Socket Mode, Discord's Gateway). It is Node's own WebSocket client, so no dependency. What
 * arrives waits in a bounded queue: a reader that falls that far behind has the socket closed rather
 * than the broker's memory grow.
 */

export type SocketEvent =
  | { kind: 'message'; text: string }
  | { kind: 'closed'; code: number }
  | { kind: 'overflow' }
  | { kind: 'aborted' };

export interface MessageSocket {
  /** The next message, or how the socket ended (every later call gives the same end). */
  next(): Promise<SocketEvent>;
  send(text: string): void;
  close(code?: number): void;
}

const MAX_QUEUED = 256;

/** Opens the socket; undefined when it cannot be opened (refused, bad address, aborted). */
export function openMessageSocket(url: string, signal: AbortSignal): Promise<MessageSocket | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      return resolve(undefined);
    }
    const queue: SocketEvent[] = [];
    let waiting: ((event: SocketEvent) => void) | undefined;
    let end: SocketEvent | undefined;
    let opened = false;

    const finish = (event: SocketEvent) => {
      if (end !== undefined) return;
      end = event;
      signal.removeEventListener('abort', onAbort);
      deliver(event);
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
      if (!opened) resolve(undefined);
    };
    const deliver = (event: SocketEvent) => {
      const reader = waiting;
      waiting = undefined;
      if (reader !== undefined) reader(event);
      else if (event.kind === 'message') queue.push(event);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });

    socket.addEventListener('open', () => {
      opened = true;
      resolve({
        next: () => {
          const queued = queue.shift();
          if (queued !== undefined) return Promise.resolve(queued);
          if (end !== undefined) return Promise.resolve(end);
          return new Promise((take) => (waiting = take));
        },
        send: (text) => {
          if (end === undefined && socket.readyState === WebSocket.OPEN) socket.send(text);
        },
        close: (code = 1000) => {
          if (end === undefined) socket.close(code);
        },
      });
    });
    socket.addEventListener('message', (event) => {
      if (end !== undefined) return;
      if (typeof event.data !== 'string') return;
      if (queue.length >= MAX_QUEUED) return finish({ kind: 'overflow' });
      deliver({ kind: 'message', text: event.data });
    });
    socket.addEventListener('close', (event) => finish({ kind: 'closed', code: event.code }));
    socket.addEventListener('error', () => finish({ kind: 'closed', code: 1006 }));
  });
}
