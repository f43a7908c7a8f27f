import { request } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { NotificationDto } from './api-types.js';
import { BrokerUnreachableError } from './errors.js';
import { toHttpError } from './notify-client.js';

/** One event of GET /v1/stream (docs/api.md "Event stream"). */
export interface ChangeEvent {
  id: string;
  /** notification.created, .updated, .resolved, .dismissed or .reopened */
  name: string;
  notification: NotificationDto;
}

export interface StreamHandlers {
  /** The broker accepted the stream. */
  onOpen?(): void;
  onEvent(event: ChangeEvent): void;
  /** Events were missed and cannot be replayed: re-read the state (list) before trusting events again. */
  onReset?(): void;
}

export interface StreamOptions {
  baseUrl: string;
  token?: string;
  /** Resume after this event. */
  lastEventId?: string;
}

export interface OpenStream {
  close(): void;
  /**
   * Settles when the stream ends: resolves when the broker ended it (it stopped) or close() was
   * called; rejects with HttpError (refused) or BrokerUnreachableError (no connection, or it broke).
   */
  ended: Promise<void>;
}

/** Follows the broker's event stream over node:http; events are parsed by eventsource-parser. */
export function openEventStream(options: StreamOptions, handlers: StreamHandlers): OpenStream {
  const url = new URL('/v1/stream', options.baseUrl);
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  let closedByUs = false;
  let close = () => {};
  const ended = new Promise<void>((resolve, reject) => {
    const outgoing = request(url, { method: 'GET', headers, agent: false }, (incoming) => {
      const status = incoming.statusCode ?? 0;
      incoming.setEncoding('utf8');
      if (status !== 200) {
        let body = '';
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () =>
          reject(
            toHttpError({ status, statusText: incoming.statusMessage || STATUS_CODES[status] || '', body }),
          ),
        );
        return;
      }
      handlers.onOpen?.();
      const parser = createParser({
        onEvent: (message) => {
          if (message.event === 'reset') return handlers.onReset?.();
          if (!message.event?.startsWith('notification.') || message.id === undefined) return;
          let notification: NotificationDto;
          try {
            notification = JSON.parse(message.data) as NotificationDto;
          } catch {
            return; // not an event of ours: skipped rather than taking the reader down
          }
          handlers.onEvent({ id: message.id, name: message.event, notification });
        },
      });
      incoming.on('data', (chunk: string) => parser.feed(chunk));
      incoming.on('end', () => resolve());
      incoming.on('error', (error) =>
        closedByUs ? resolve() : reject(new BrokerUnreachableError(url.origin, error.message)),
      );
    });
    outgoing.on('error', (error) =>
      closedByUs ? resolve() : reject(new BrokerUnreachableError(url.origin, error.message)),
    );
    outgoing.end();
    close = () => {
      closedByUs = true;
      outgoing.destroy();
      resolve();
    };
  });
  return { close: () => close(), ended };
}
