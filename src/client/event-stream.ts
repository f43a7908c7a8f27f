import { createParser } from 'eventsource-parser';
import type { NotificationDto } from './api-types.js';
import { toHttpError } from './notify-client.js';
import { openStreamingRequest, socketOf, type BrokerAddress } from './transport.js';

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

export interface StreamOptions extends BrokerAddress {
  token?: string;
  /** Resume after this event. */
  lastEventId?: string;
}

export interface OpenStream {
  close(): void;
  /**
   * Settles when the stream ends: resolves when the broker ended it (it stopped) or close() was
   * called; rejects with HttpError (refused), ForeignListenerError (another user's program holds the
   * port: nothing was sent) or BrokerUnreachableError (no connection, or it broke).
   */
  ended: Promise<void>;
}

/** Follows the broker's event stream through the transport; events are parsed by eventsource-parser. */
export function openEventStream(options: StreamOptions, handlers: StreamHandlers): OpenStream {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
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
  // A refusal's body is kept for the error; an accepted stream's goes to the parser.
  let refused: { status: number; statusText: string; body: string } | undefined;
  const exchange = openStreamingRequest(
    { method: 'GET', url: new URL('/v1/stream', options.baseUrl), ...socketOf(options), headers },
    {
      onResponse: (status, statusText) => {
        if (status === 200) handlers.onOpen?.();
        else refused = { status, statusText, body: '' };
      },
      onText: (text) => {
        if (refused) refused.body += text;
        else parser.feed(text);
      },
    },
  );
  let closedByUs = false;
  const ended = exchange.ended.then(() => {
    if (refused && !closedByUs) throw toHttpError(refused);
  });
  const close = () => {
    closedByUs = true;
    exchange.close();
  };
  return { close, ended };
}
