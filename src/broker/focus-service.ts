import { focusOrigin, type FocusDeps, type FocusResult } from '../focus/place-focus.js';
import { FocusRefusedError } from '../focus/focus-refused.js';
import type { Logger } from '../log/logger.js';
import type { NotificationService } from './notification-service.js';

export interface FocusServiceDeps extends FocusDeps {
  notifications: Pick<NotificationService, 'get'>;
  log: Pick<Logger, 'info'>;
}

/** Takes the person to where a notification's agent runs: from the API, a toast, the tray, the page. */
export class FocusService {
  constructor(private readonly deps: FocusServiceDeps) {}

  /** 404 for an unknown id; FocusRefusedError (409) with the reason when the place cannot be reached. */
  async focus(id: string, from: string): Promise<FocusResult> {
    const record = this.deps.notifications.get(id);
    try {
      const result = await focusOrigin(record.origin, this.deps);
      const outer = result.outer ? ` and ${result.outer}` : '';
      this.deps.log.info(`notification ${id} focused (${result.how}${outer}) from ${from}`);
      return result;
    } catch (error) {
      if (error instanceof FocusRefusedError)
        this.deps.log.info(`notification ${id} not focused from ${from}: ${error.message}`);
      throw error;
    }
  }
}
