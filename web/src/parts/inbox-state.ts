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

/** The inbox after one change from the stream (or an action on the page): the newest copy wins. */
export function applyChange(state: InboxState, changed: NotificationDto): InboxState {
  const active = state.active.filter((n) => n.id !== changed.id);
  const recent = state.recent.filter((n) => n.id !== changed.id);
  if (changed.status === 'active') return { ...state, active: [...active, changed].sort(byUrgency), recent };
  return { ...state, active, recent: [changed, ...recent].slice(0, RECENT_COUNT) };
}
