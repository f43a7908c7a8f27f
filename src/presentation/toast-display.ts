import type { ToastContent } from './toast-style.js';

/**
 * Resolve, Dismiss, Snooze, one of the notification's own actions (`answer.<action id>`), `default`: a
 * click on the toast itself, which takes the person to the agent when its origin is known and opens
 * the web page otherwise, or `open`: the web page, offered beside a default that focuses.
 */
export type ToastAction = 'resolve' | 'dismiss' | 'default' | 'open' | 'snooze' | `answer.${string}`;

const ANSWER_KEY = /^answer\.([a-z][a-z0-9_]{0,63})$/;

/** The button key of one of a notification's actions. */
export function answerKey(actionId: string): ToastAction {
  return `answer.${actionId}`;
}

/** The action id a button key answers with; undefined for Resolve and Dismiss. */
export function answeredAction(action: ToastAction): string | undefined {
  return ANSWER_KEY.exec(action)?.[1];
}

/** Whether a key a notification server sent names a button we offer; any other is ignored. */
export function isToastAction(key: unknown): key is ToastAction {
  return (
    key === 'resolve' ||
    key === 'dismiss' ||
    key === 'default' ||
    key === 'open' ||
    key === 'snooze' ||
    (typeof key === 'string' && ANSWER_KEY.test(key))
  );
}

/** What a display tells the presenter. */
export interface ToastDisplayEvents {
  /** A toast is gone from the screen (expired, closed by the person, or closed by us). */
  closed(displayId: number): void;
  /** The person pressed one of the toast's buttons. */
  action(displayId: number, action: ToastAction): void;
  /** Toasts can be shown (at start, or again after the display came back); `name` is for the log. */
  available(name: string): void;
  /** Toasts cannot be shown; `reason` completes "toasts are off: ...". */
  unavailable(reason: string): void;
}

/**
 * One platform's way of showing toasts (freedesktop D-Bus on Linux, osascript on macOS, PowerShell on
 * Windows). The presenter owns the queue; a display only shows, replaces and closes.
 */
export interface ToastDisplay {
  start(events: ToastDisplayEvents): void;
  /** Shows a toast, replacing the one with `replacesId` when not 0; resolves to the new toast's id. */
  show(content: ToastContent, replacesId: number): Promise<number>;
  close(displayId: number): Promise<void>;
  stop(): void;
}
