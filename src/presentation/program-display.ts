import { execFile } from 'node:child_process';
import type { ToastDisplay, ToastDisplayEvents } from './toast-display.js';
import type { ToastContent } from './toast-style.js';

/** The program and argument array that shows one toast; never a shell string. */
export interface ToastCommandLine {
  program: string;
  args: string[];
}

const TIMEOUT_MS = 15_000;

/**
 * A display that hands each toast to a platform program (osascript, PowerShell). The platform's
 * notification centre owns the toast once shown and tells us nothing back, so its slot frees as soon as
 * the program is done, and there is nothing to close or act on.
 */
export class ProgramDisplay implements ToastDisplay {
  #events: ToastDisplayEvents | undefined;
  #nextId = 1;

  constructor(
    private readonly name: string,
    private readonly commandLine: (content: ToastContent) => ToastCommandLine,
  ) {}

  start(events: ToastDisplayEvents): void {
    this.#events = events;
    events.available(this.name);
  }

  // Notification centres replace nothing on request: an update arrives as a toast of its own.
  show(content: ToastContent, _replacesId = 0): Promise<number> {
    const { program, args } = this.commandLine(content);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      execFile(program, args, { timeout: TIMEOUT_MS, windowsHide: true }, (error) => {
        if (error) return reject(new Error(`${program} failed: ${error.message.split('\n')[0]}`));
        setImmediate(() => this.#events?.closed(id));
        resolve(id);
      });
    });
  }

  async close(): Promise<void> {}

  stop(): void {}
}
