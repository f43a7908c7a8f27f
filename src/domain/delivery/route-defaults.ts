import type { Priority } from '../priority.js';

/**
 * What a new route is when its maker says nothing more: the one source for the broker (POST
 * /v1/routes, which `notifyctl routes add` calls), the page's New route form and their help texts, so a
 * route made either way is the same route. It starts disabled (spec "Outbound delivery" 4).
 */
export const NEW_ROUTE = {
  enabled: false,
  minimumPriority: 'normal' as Priority,
  includeMessage: true,
  delaySeconds: 0,
  sendDuringQuietHours: false,
} as const;
