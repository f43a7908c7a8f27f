import { readFileSync } from 'node:fs';

/** What the client takes from config.json; the broker owns the file, so the client only reads it. */
export interface ClientConfig {
  port?: number;
  authToken?: string;
}

export type ConfigRead =
  { state: 'found'; config: ClientConfig } | { state: 'missing' } | { state: 'unreadable'; problem: string };

export function readClientConfig(file: string): ConfigRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'unreadable', problem: `${file} cannot be read (${(error as Error).message})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      state: 'unreadable',
      problem: `${file} is not valid JSON (${syntaxErrorPlace(error as Error, text)})`,
    };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { state: 'unreadable', problem: `${file} does not hold a JSON object` };
  }
  const { port, authToken } = raw as Record<string, unknown>;
  const config: ClientConfig = {};
  if (isPort(port)) config.port = port;
  if (typeof authToken === 'string' && authToken.trim() !== '') config.authToken = authToken.trim();
  return { state: 'found', config };
}

export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

/**
 * Where the JSON breaks, as line and column. V8's own message quotes the text around the error, and
 * that text can be the token, so it is never shown.
 */
function syntaxErrorPlace(error: Error, text: string): string {
  const position = /position (\d+)/.exec(error.message);
  if (!position) return 'check quotes, commas and braces';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `syntax error at line ${line}, column ${column}`;
}
