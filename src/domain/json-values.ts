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
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      if (!isWellFormed(current)) {
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
        if (!isWellFormed(key)) {
          throw new InvalidRequestError(
            `${fieldName(path)} has a key that is not valid Unicode text; it contains a lone surrogate`,
          );
        }
        pending.push({ value: element, path: path === '' ? key : `${path}.${key}` });
      }
    }
  }
}

/**
 * Whether JSON text can parse to a value assertStorableJson refuses; when not, the walk is skipped (issue
 * 38: it was a tenth of a create's own work). Text decoded from UTF-8 holds no lone surrogate (the decoder
 * replaces one with U+FFFD), so only a `\uD800`-`\uDFFF` escape can make one; a number beyond a double
 * needs an exponent of three digits or a run of over 300 digits. Anything that looks like either (also
 * inside a string, or an escaped backslash before `u`) takes the walk.
 */
export function mayHoldUnstorable(text: string): boolean {
  return MAYBE_UNSTORABLE.test(text);
}

const MAYBE_UNSTORABLE = /\\u[dD][89a-fA-F]|[eE][+-]?\d{3}|\d{300}/;

const fieldName = (path: string) => (path === '' ? 'request body' : path);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
