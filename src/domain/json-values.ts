import { InvalidRequestError } from './errors.js';

/**
 * Values JSON.parse accepts but that cannot be stored as they were sent: a lone surrogate (`"\udc00"`)
 * becomes invalid UTF-8 in SQLite and comes back as U+FFFD, and a number beyond the double range
 * (`1e400`) parses as Infinity, which JSON.stringify writes as null. Both are refused, naming the field
 * the way the body spelled it (`metadata.sizes[2]`).
 *
 * The walk keeps its own stack: a 64 KiB body can nest thousands of levels, beyond the call stack.
 */
export function assertStorableJson(value: unknown): void {
  if (isStorable(value)) return;
  throwNamingTheField(value);
}

/** An exponent of three digits or more (leading zeros included: only a sign that the walk must run). */
const LARGE_EXPONENT = /[eE][+-]?\d{3}/;
/** 200 digits or more in a row. Linear: a run is tried only where it starts. */
const LONG_DIGIT_RUN = /(?:^|\D)\d{200}/;

/**
 * Parses JSON text decoded from UTF-8 (a request body) and checks it as assertStorableJson does. Such
 * text can hold a lone surrogate only as a `\u` escape (decoding never makes one), and a number beyond
 * a double only with an exponent of three digits or more, or with 200 digits or more in a row (fewer
 * integer digits and an exponent below 100 stay below 10^299). Text with none of these is storable as
 * it is, so the walk runs only for text that has one (issue 38: the walk was most of a create's checks).
 */
export function parseStorableJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes('\\u') || LARGE_EXPONENT.test(text) || LONG_DIGIT_RUN.test(text)) {
    assertStorableJson(value);
  }
  return value;
}

/**
 * The check alone, without the field's name: no path is built for every value (issue 38: building
 * them was most of the walk's cost on every create). The named walk runs only for a refusal.
 */
function isStorable(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let index = 0; index < pending.length; index++) {
    const current = pending[index];
    if (typeof current === 'string') {
      if (!current.isWellFormed()) return false;
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) return false;
    } else if (Array.isArray(current)) {
      for (const element of current) pending.push(element);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, element] of Object.entries(current)) {
        if (!key.isWellFormed()) return false;
        pending.push(element);
      }
    }
  }
  return true;
}

function throwNamingTheField(value: unknown): void {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      if (!current.isWellFormed()) {
        throw new InvalidRequestError(
          `${fieldName(path)} must be valid Unicode text; it contains a lone surrogate`,
        );
      }
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) {
        throw new InvalidRequestError(
          `${fieldName(path)} must be a finite number; it is beyond the range of a double`,
        );
      }
    } else if (Array.isArray(current)) {
      current.forEach((element, index) => pending.push({ value: element, path: `${path}[${index}]` }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, element] of Object.entries(current)) {
        if (!key.isWellFormed()) {
          throw new InvalidRequestError(
            `${fieldName(path)} has a key that is not valid Unicode text; it contains a lone surrogate`,
          );
        }
        pending.push({ value: element, path: path === '' ? key : `${path}.${key}` });
      }
    }
  }
}

const fieldName = (path: string) => (path === '' ? 'request body' : path);
