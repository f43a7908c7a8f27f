import { InvalidRequestError } from './errors.js';
import { characterCount } from './text.js';

/** Readers for one field of a JSON body; each failure names the field in a sentence. */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObjectBody(body: unknown): JsonObject {
  if (!isJsonObject(body)) throw new InvalidRequestError('request body must be a JSON object');
  return body;
}

export function rejectUnknownFields(body: JsonObject, allowed: readonly string[]): void {
  for (const field of Object.keys(body)) {
    if (!allowed.includes(field)) {
      throw new InvalidRequestError(`unknown field "${field}"; allowed fields are ${allowed.join(', ')}`);
    }
  }
}

interface TextRule {
  max: number;
  required?: boolean;
}

/** A trimmed string of 1..max characters; undefined when optional and absent or null. */
export function readText(body: JsonObject, field: string, rule: TextRule & { required: true }): string;
export function readText(body: JsonObject, field: string, rule: TextRule): string | undefined;
export function readText(body: JsonObject, field: string, rule: TextRule): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (rule.required) throw new InvalidRequestError(`${field} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw new InvalidRequestError(`${field} must be a string`);
  const text = value.trim();
  if (text.length === 0) throw new InvalidRequestError(`${field} must not be empty`);
  if (characterCount(text) > rule.max) {
    throw new InvalidRequestError(`${field} must be at most ${rule.max} characters`);
  }
  return text;
}

export function readNonNegativeInteger(body: JsonObject, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidRequestError(`${field} must be a non-negative integer`);
  }
  return value;
}
