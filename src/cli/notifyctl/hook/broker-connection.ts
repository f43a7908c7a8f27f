import { resolvePaths } from '../../../config/paths.js';
import { isPort, readClientConfig } from '../../notify/client-config.js';

const DEFAULT_PORT = 47821;

/** The port and token `notify` would use: NOTIFY_PORT / NOTIFY_TOKEN, else config.json, else 47821. */
export function brokerConnection(env: NodeJS.ProcessEnv): { port: number; token?: string } {
  const envPort = Number(env['NOTIFY_PORT']?.trim() || NaN);
  const envToken = env['NOTIFY_TOKEN']?.trim() || undefined;
  const read = isPort(envPort) && envToken ? undefined : readClientConfig(resolvePaths(env).configFile);
  const config = read?.state === 'found' ? read.config : {};
  const port = isPort(envPort) ? envPort : (config.port ?? DEFAULT_PORT);
  const token = envToken ?? config.authToken;
  return token === undefined ? { port } : { port, token };
}
