import type { NotificationDto, Priority } from '../api-types.js';

const RANK: Record<Priority, number> = { critical: 0, high: 1, normal: 2, low: 3 };

/** How many handled notifications the inbox keeps below the active ones. */
export const RECENT_COUNT = 20;

export interface InboxState {
  active: NotificationDto[];
  recent: NotificationDto[];
  /** False when the first load hit its limit: more are active than the page has. */
  complete: boolean;
}

/** Most urgent first, then newest. */
function byUrgency(a: NotificationDto, b: NotificationDto): number {
  return RANK[a.priority] - RANK[b.priority] || b.createdAt.localeCompare(a.createdAt);
}

export function inboxOf(active: NotificationDto[], recent: NotificationDto[], limit: number): InboxState {
  return {
    complete: active.length < limit,
    active: [...active].sort(byUrgency),
    recent: recent.filter((n) => n.status !== 'active').slice(0, RECENT_COUNT),
  };
}

/**
 * The inbox after one change from the stream (or an action on the page): the newest copy wins. The
 * active list stays within `limit`, so a flood costs the page the same at the ten-thousandth change as
 * at the first; what falls off marks the list incomplete, and `needsReload` says when to fetch again.
 */
export function applyChange(state: InboxState, changed: NotificationDto, limit: number): InboxState {
  const active = state.active.filter((n) => n.id !== changed.id);
  const recent = state.recent.filter((n) => n.id !== changed.id);
  if (changed.status !== 'active') {
    return { ...state, active, recent: [changed, ...recent].slice(0, RECENT_COUNT) };
  }
  const at = active.findIndex((n) => byUrgency(changed, n) < 0);
  active.splice(at === -1 ? active.length : at, 0, changed);
  if (active.length <= limit) return { ...state, active, recent };
  return { active: active.slice(0, limit), recent, complete: false };
}

/** Some active notifications are not in the list, and it has room to show them. */
export function needsReload(state: InboxState, limit: number): boolean {
  return !state.complete && state.active.length < limit;
}
