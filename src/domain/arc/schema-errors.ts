import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * Turns the errors of validating an envelope against schemas/arc-0.1.schema.json into the one sentence
 * a producer sees: the most specific failure, naming the field path and the rule in plain words,
 * e.g. `request.message must be at most 4000 characters`.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[], body: unknown): string {
  const candidates = errors.filter((error) => !WRAPPERS.has(error.keyword));
  if (candidates.length === 0) return 'the event does not match the ARC 0.1 schema';
  // The version decides how the rest would be read, so an unsupported one is reported first.
  const version = candidates.find((error) => targetOf(error) === '/arc_version');
  const chosen = version ?? mostSpecific(candidates);
  return describe(chosen, eventTypeOf(body));
}

/** Keywords that only say "something below failed"; the error below them is the specific one. */
const WRAPPERS = new Set(['if', 'allOf', 'anyOf', 'oneOf', 'propertyNames', 'not']);

const EXTENSION_KEY_PATTERN = '^x-[a-z0-9][a-z0-9.-]{0,63}$';
const TYPE_IDENTIFIER_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
const NON_WHITESPACE_PATTERN = '\\S';

/** The deepest failing location wins; among equals, the first the schema reports. */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject {
  let best = errors[0]!;
  for (const error of errors) {
    if (depth(targetOf(error)) > depth(targetOf(best))) best = error;
  }
  return best;
}

/** JSON pointer of the value the error is about: a missing or unknown property counts as its own path. */
function targetOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${String(params['missingProperty'])}`;
  if (error.keyword === 'additionalProperties') {
    return `${error.instancePath}/${String(params['additionalProperty'])}`;
  }
  if (error.propertyName !== undefined) return `${error.instancePath}/${error.propertyName}`;
  return error.instancePath;
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

/** `/request/message` → `request.message`; the root is "the event". */
export function formatPath(pointer: string): string {
  if (pointer === '') return 'the event';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^[A-Za-z0-9_.-]+$/.test(segment) ? segment : JSON.stringify(segment)))
    .join('.');
}

function describe(error: ErrorObject, eventType: string | undefined): string {
  const params = error.params as Record<string, unknown>;
  const path = formatPath(error.instancePath);
  const conditional = error.schemaPath.includes('/then/');
  switch (error.keyword) {
    case 'required': {
      const field = formatPath(targetOf(error));
      return conditional && eventType ? `${field} is required for ${eventType}` : `${field} is required`;
    }
    case 'additionalProperties':
      return describeUnknownProperty(error, conditional, eventType);
    case 'const':
      return `${path} must be ${JSON.stringify(params['allowedValue'])}`;
    case 'enum':
      return `${path} must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
    case 'type':
      return `${path} must be ${withArticle(String(params['type']))}`;
    case 'minLength':
      return params['limit'] === 1
        ? `${path} must not be empty`
        : `${path} must be at least ${String(params['limit'])} characters`;
    case 'maxLength':
      return `${path} must be at most ${String(params['limit'])} characters`;
    case 'minimum':
      return params['limit'] === 0
        ? `${path} must be a non-negative integer`
        : `${path} must be at least ${String(params['limit'])}`;
    case 'maximum':
      return `${path} must be at most ${String(params['limit'])}`;
    case 'format':
      return params['format'] === 'date-time'
        ? `${path} must be an RFC 3339 date-time with a time zone offset, e.g. 2026-05-01T12:00:00Z`
        : `${path} must be a valid ${String(params['format'])}`;
    case 'pattern':
      return describePattern(error, path, String(params['pattern']));
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}

function describeUnknownProperty(
  error: ErrorObject,
  conditional: boolean,
  eventType: string | undefined,
): string {
  const parent = error.instancePath;
  if (conditional && eventType === 'request.resolved' && parent === '/request') {
    return 'request.resolved allows no request property but key';
  }
  const field = formatPath(targetOf(error));
  const allowed = Object.keys((error.parentSchema?.['properties'] as object | undefined) ?? {}).join(', ');
  if (parent === '') return `${field} is not an ARC 0.1 envelope field; the envelope allows only ${allowed}`;
  return `${field} is not allowed; ${formatPath(parent)} allows only ${allowed}`;
}

function describePattern(error: ErrorObject, path: string, pattern: string): string {
  if (pattern === EXTENSION_KEY_PATTERN && error.propertyName !== undefined) {
    return `${formatPath(targetOf(error))} is not a namespaced extension key; keys must be "x-" then a lowercase letter or digit and up to 63 lowercase letters, digits, dots or hyphens`;
  }
  if (pattern === TYPE_IDENTIFIER_PATTERN) {
    return `${path} must be a type identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores`;
  }
  if (pattern === NON_WHITESPACE_PATTERN) return `${path} must contain a non-whitespace character`;
  return `${path} must match the pattern ${pattern}`;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function eventTypeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)['event_type'];
  return typeof value === 'string' ? value : undefined;
}
