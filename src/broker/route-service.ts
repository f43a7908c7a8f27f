import { MAX_DELAY_SECONDS, normalizeTypeFilter } from '../domain/delivery/route.js';
import { NEW_ROUTE } from '../domain/delivery/route-defaults.js';
import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { formatTimestamp } from '../domain/notification.js';
import { isTypeIdentifier } from '../domain/notification-type.js';
import { normalizePriority, type Priority } from '../domain/priority.js';
import type { ProviderStore } from '../store/provider-store.js';
import type { RouteRecord, RouteStore } from '../store/route-store.js';
import type { Clock } from './clock.js';
import { booleanOf, objectOf } from './provider-service.js';
import { characterCount } from '../domain/text.js';

export interface RouteServiceDeps {
  routes: RouteStore;
  providers: ProviderStore;
  clock: Clock;
  newId: () => string;
  changed: () => void;
}

export interface RouteView {
  id: string;
  name: string;
  providerId: string;
  enabled: boolean;
  minimumPriority: Priority;
  typeId: string | null;
  project: string | null;
  agent: string | null;
  includeMessage: boolean;
  delaySeconds: number;
  sendDuringQuietHours: boolean;
  createdAt: string;
  updatedAt: string;
}

const FIELDS = [
  'name',
  'providerId',
  'enabled',
  'minimumPriority',
  'typeId',
  'project',
  'agent',
  'includeMessage',
  'delaySeconds',
  'sendDuringQuietHours',
];

/** Route management: CRUD and enable/disable; a new route starts disabled. */
export class RouteService {
  constructor(private readonly deps: RouteServiceDeps) {}

  list(): RouteView[] {
    return this.deps.routes.list().map(view);
  }

  get(id: string): RouteView {
    return view(this.record(id));
  }

  create(body: unknown): RouteView {
    const input = objectOf(body);
    if (input['providerId'] === undefined) throw new InvalidRequestError('providerId is required');
    const now = this.deps.clock();
    const base: RouteRecord = {
      id: this.deps.newId(),
      name: 'route',
      providerId: '',
      ...NEW_ROUTE,
      createdAt: now,
      updatedAt: now,
    };
    // New routes start disabled whatever the request says (spec "Outbound delivery" 4).
    const route = this.apply(base, { ...input, enabled: false });
    if (input['name'] === undefined)
      route.name = `route to ${this.deps.providers.get(route.providerId)!.name}`;
    this.deps.routes.save(route);
    this.deps.changed();
    return view(route);
  }

  update(id: string, body: unknown): RouteView {
    const route = this.apply(this.record(id), objectOf(body));
    route.updatedAt = this.deps.clock();
    this.deps.routes.save(route);
    this.deps.changed();
    return view(route);
  }

  setEnabled(id: string, enabled: boolean): RouteView {
    return this.update(id, { enabled });
  }

  delete(id: string): void {
    if (!this.deps.routes.delete(id)) throw new NotFoundError('route not found');
    this.deps.changed();
  }

  private record(id: string): RouteRecord {
    const route = this.deps.routes.get(id);
    if (!route) throw new NotFoundError('route not found');
    return route;
  }

  private apply(current: RouteRecord, input: Record<string, unknown>): RouteRecord {
    const route = { ...current };
    for (const [field, value] of Object.entries(input)) {
      if (!FIELDS.includes(field))
        throw new InvalidRequestError(`${field} is not a route field (known: ${FIELDS.join(', ')})`);
      if (field === 'name') route.name = text(value, field, 100)!;
      else if (field === 'providerId') {
        if (typeof value !== 'string' || !this.deps.providers.get(value)) {
          throw new InvalidRequestError('providerId must name an existing provider (see GET /v1/providers)');
        }
        route.providerId = value;
      } else if (field === 'enabled') route.enabled = booleanOf(value, field);
      else if (field === 'includeMessage') route.includeMessage = booleanOf(value, field);
      else if (field === 'sendDuringQuietHours') route.sendDuringQuietHours = booleanOf(value, field);
      else if (field === 'minimumPriority') {
        const priority = typeof value === 'string' ? normalizePriority(value) : undefined;
        if (!priority)
          throw new InvalidRequestError('minimumPriority must be low, normal, high, or critical');
        route.minimumPriority = priority;
      } else if (field === 'typeId') {
        const typeId = text(value, field, 64);
        if (typeId !== undefined && !isTypeIdentifier(normalizeTypeFilter(typeId))) {
          throw new InvalidRequestError(
            'typeId must be a valid type identifier (letters, digits, underscores; at most 64)',
          );
        }
        route.typeId = typeId === undefined ? undefined : normalizeTypeFilter(typeId);
      } else if (field === 'project') route.project = text(value, field, 200);
      else if (field === 'agent') route.agent = text(value, field, 100);
      else if (field === 'delaySeconds') {
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_DELAY_SECONDS) {
          throw new InvalidRequestError(
            `delaySeconds must be a whole number of seconds from 0 (send at once) to ${MAX_DELAY_SECONDS} (a day)`,
          );
        }
        route.delaySeconds = value as number;
      }
    }
    return route;
  }
}

/** A trimmed string within the limit; null or empty clears an optional filter. */
function text(value: unknown, field: string, max: number): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string' || characterCount(value.trim()) > max) {
    throw new InvalidRequestError(`${field} must be a string of at most ${max} characters, or null`);
  }
  return value.trim() === '' ? undefined : value.trim();
}

function view(route: RouteRecord): RouteView {
  return {
    id: route.id,
    name: route.name,
    providerId: route.providerId,
    enabled: route.enabled,
    minimumPriority: route.minimumPriority,
    typeId: route.typeId ?? null,
    project: route.project ?? null,
    agent: route.agent ?? null,
    includeMessage: route.includeMessage,
    delaySeconds: route.delaySeconds,
    sendDuringQuietHours: route.sendDuringQuietHours ?? false,
    createdAt: formatTimestamp(route.createdAt),
    updatedAt: formatTimestamp(route.updatedAt),
  };
}
