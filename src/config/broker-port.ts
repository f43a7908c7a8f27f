/** Where the broker's port came from: `--port`, NOTIFY_PORT, or config.json (its default included). */
export type PortSource = 'flag' | 'env' | 'config';

export interface PortOverride {
  port: number;
  source: Exclude<PortSource, 'config'>;
}

export class InvalidPortError extends Error {
  override name = 'InvalidPortError';
}

/**
 * The port notifyd listens on when something overrides config.json's: `--port`, else NOTIFY_PORT, the
 * precedence `notify` uses (docs/configuration.md "Running the broker"). Undefined when config.json
 * decides. Throws InvalidPortError for a value that is no port, naming where it came from.
 */
export function portOverride(flag: string | undefined, env: NodeJS.ProcessEnv): PortOverride | undefined {
  if (flag !== undefined) return { port: parsePort(flag, '--port'), source: 'flag' };
  const fromEnv = env['NOTIFY_PORT']?.trim();
  if (fromEnv) return { port: parsePort(fromEnv, 'NOTIFY_PORT'), source: 'env' };
  return undefined;
}

function parsePort(text: string, origin: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new InvalidPortError(`${origin} must be an integer from 1 to 65535 (got '${text}').`);
  return value;
}
