import type { NotificationRecord } from '../notification.js';
import { priorityRank, type Priority } from '../priority.js';

/** A rule that sends matching notifications to one provider (spec "Outbound delivery"). */
export interface Route {
  id: string;
  name: string;
  providerId: string;
  enabled: boolean;
  minimumPriority: Priority;
  typeId?: string;
  project?: string;
  agent?: string;
  /** False: only the title leaves the machine. */
  includeMessage: boolean;
  /**
   * Seconds a send waits before it may start (0 = at once, at most MAX_DELAY_SECONDS); it is cancelled,
   * unsent, when the notification is handled meanwhile.
   */
  delaySeconds: number;
  /** True: sends as usual during quiet hours; otherwise a send below their priority waits for their end. */
  sendDuringQuietHours?: boolean;
}

/** A route waits at most a day. */
export const MAX_DELAY_SECONDS = 86_400;

type Subject = Pick<NotificationRecord, 'priority' | 'type' | 'project' | 'agent'>;

const fold = (value: string) => value.trim().toLowerCase();

/** The filter of a route equals the notification's value after trimming, ignoring case; unset matches all. */
function sameText(filter: string | undefined, value: string | undefined): boolean {
  if (filter === undefined || filter.trim() === '') return true;
  return value !== undefined && fold(filter) === fold(value);
}

/** A type filter is compared in its normalized form (`Input-Required` is `input_required`). */
export function normalizeTypeFilter(typeId: string): string {
  return fold(typeId).replace(/-/g, '_');
}

/**
 * The spec's matching rule: route enabled; priority at least the route's minimum; type, project and
 * agent equal when the route sets them (case-insensitive, trimmed). Provider state is checked elsewhere.
 */
export function routeMatches(route: Route, notification: Subject): boolean {
  if (!route.enabled) return false;
  if (priorityRank(notification.priority) < priorityRank(route.minimumPriority)) return false;
  if (route.typeId !== undefined && route.typeId.trim() !== '') {
    if (normalizeTypeFilter(route.typeId) !== fold(notification.type)) return false;
  }
  return sameText(route.project, notification.project) && sameText(route.agent, notification.agent);
}
