import type { ToastContent } from './toast-style.js';

export type ToastAction = 'resolve' | 'dismiss';

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
