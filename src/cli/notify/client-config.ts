import { readFileSync } from 'node:fs';
import { jsonSyntaxPlace } from '../../domain/json-syntax-place.js';

/** What the client takes from config.json; the broker owns the file, so the client only reads it. */
export interface ClientConfig {
  port?: number;
  authToken?: string;
  /** The broker's Unix socket to use instead of the port (an absolute path; issue 33). */
  socket?: string;
  /** The socket is an SSH forward the desk opens with `ssh <forwardName>` (written by `remote add`). */
  forwardName?: string;
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
      problem: `${file} is not valid JSON (${jsonSyntaxPlace(error as Error, text)})`,
    };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { state: 'unreadable', problem: `${file} does not hold a JSON object` };
  }
  const { port, authToken, socket, forwardName } = raw as Record<string, unknown>;
  const config: ClientConfig = {};
  if (isPort(port)) config.port = port;
  if (typeof authToken === 'string' && authToken.trim() !== '') config.authToken = authToken.trim();
  if (typeof socket === 'string' && socket.startsWith('/')) config.socket = socket;
  if (typeof forwardName === 'string' && forwardName.trim() !== '') config.forwardName = forwardName.trim();
  return { state: 'found', config };
}

export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}
