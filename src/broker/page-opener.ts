import type { Logger } from '../log/logger.js';
import type { WebSessions } from './web-sessions.js';

export interface PageOpenerDeps {
  sessions: Pick<WebSessions, 'mintLoginCode'>;
  port: () => number;
  /** Whether a program to open a URL with exists ($BROWSER, xdg-open, open). */
  canOpen: () => boolean;
  /**
   * Opens the sign-in link (through a launcher file, never on a command line); resolves to the program
   * that did, undefined when none could; throws when the link could not be handed over safely.
   */
  open: (url: string) => Promise<string | undefined>;
  log: Logger;
}

/**
 * Opens the web page in the person's browser from the tray and the toasts, the way `notifyctl open`
 * does: through a fresh one-time sign-in link. The link is never logged (it signs in until used).
 */
export class PageOpener {
  constructor(private readonly deps: PageOpenerDeps) {}

  async open(from: string): Promise<void> {
    if (!this.deps.canOpen()) return;
    const { code } = this.deps.sessions.mintLoginCode();
    let opener: string | undefined;
    try {
      opener = await this.deps.open(`http://127.0.0.1:${this.deps.port()}/login?code=${code}`);
    } catch (error) {
      this.deps.log.warn(`web page: not opened from ${from}: ${(error as Error).message}`);
      return;
    }
    if (opener) this.deps.log.info(`web page: opened from ${from} with ${opener}`);
    else
      this.deps.log.warn(
        `web page: no program could open it from ${from}; run 'notifyctl open' to see its link`,
      );
  }
}
