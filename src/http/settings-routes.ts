import type { FastifyRequest } from 'fastify';
import type { SettingsAdmin } from '../broker/settings-admin.js';
import { ERROR_SCHEMA, SOUND_REFERENCE_SCHEMA } from './schema-parts.js';

const SOUNDS_BY_PRIORITY = {
  type: 'object',
  properties: {
    low: SOUND_REFERENCE_SCHEMA,
    normal: SOUND_REFERENCE_SCHEMA,
    high: SOUND_REFERENCE_SCHEMA,
    critical: SOUND_REFERENCE_SCHEMA,
  },
  additionalProperties: false,
} as const;

const TIME = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } as const;

/** config.json `quietHours` (docs/attention.md "Quiet hours"); null = none. */
const QUIET_HOURS = {
  oneOf: [
    {
      type: 'object',
      required: ['windows'],
      properties: {
        windows: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'object',
            required: ['from', 'to'],
            properties: {
              from: TIME,
              to: TIME,
              days: {
                type: 'array',
                minItems: 1,
                items: { enum: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
              },
            },
            additionalProperties: false,
          },
        },
        minimumPriority: { enum: ['low', 'normal', 'high', 'critical'] },
        timeZone: { type: 'string' },
      },
      additionalProperties: false,
    },
    { type: 'null' },
  ],
} as const;

const SETTINGS = {
  type: 'object',
  required: [
    'pauseNotifications',
    'soundsEnabled',
    'doNotDisturb',
    'playCriticalSoundsDuringDoNotDisturb',
    'maxVisibleToasts',
    'soundsByPriority',
    'quietHours',
    'quietWhileFocused',
    'focusGraceSeconds',
  ],
  properties: {
    pauseNotifications: { type: 'boolean' },
    soundsEnabled: { type: 'boolean' },
    doNotDisturb: { type: 'boolean' },
    playCriticalSoundsDuringDoNotDisturb: { type: 'boolean' },
    maxVisibleToasts: { type: 'integer', minimum: 1, maximum: 20 },
    soundsByPriority: { ...SOUNDS_BY_PRIORITY, required: ['low', 'normal', 'high', 'critical'] },
    quietHours: QUIET_HOURS,
    quietWhileFocused: { type: 'boolean' },
    focusGraceSeconds: { type: 'integer', minimum: 0, maximum: 3600 },
  },
  additionalProperties: false,
} as const;

/** A JSON merge patch of SETTINGS: any subset, `null` restores a default. */
const SETTINGS_PATCH = {
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(SETTINGS.properties).map(([field, schema]) => [
      field,
      { oneOf: [schema, { type: 'null' }] },
    ]),
  ),
  additionalProperties: false,
};

/** Request and response shapes of /v1/settings, for the OpenAPI document. */
export const SETTINGS_ROUTE_SCHEMAS = {
  get: { response: { 200: SETTINGS } },
  patch: { body: SETTINGS_PATCH, response: { 200: SETTINGS, 400: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
} as const;

export function settingsHandlers(admin: SettingsAdmin) {
  return {
    get: async () => admin.get(),
    patch: async (request: FastifyRequest) => admin.patch(request.body),
  };
}
