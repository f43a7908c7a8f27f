import { resolvePaths } from '../../../config/paths.js';
import { isPort, readClientConfig } from '../../notify/client-config.js';

const DEFAULT_PORT = 47821;

export interface HookConnection {
  port: number;
  token?: string;
  /** The broker's Unix socket, which then replaces the port (NOTIFY_SOCKET, config `socket`). */
  socketPath?: string;
  forwardName?: string;
}

/**
 * The port, socket and token `notify` would use: NOTIFY_PORT / NOTIFY_TOKEN / NOTIFY_SOCKET, else
 * config.json, else 47821.
 */
export function brokerConnection(env: NodeJS.ProcessEnv): HookConnection {
  const envPort = Number(env['NOTIFY_PORT']?.trim() || NaN);
  const envToken = env['NOTIFY_TOKEN']?.trim() || undefined;
  const envSocket = env['NOTIFY_SOCKET']?.trim() || undefined;
  const read = isPort(envPort) && envToken ? undefined : readClientConfig(resolvePaths(env).configFile);
  const config = read?.state === 'found' ? read.config : {};
  const port = isPort(envPort) ? envPort : (config.port ?? DEFAULT_PORT);
  const token = envToken ?? config.authToken;
  const socketPath = envSocket ?? (isPort(envPort) ? undefined : config.socket);
  return {
    port,
    ...(token !== undefined && { token }),
    ...(socketPath !== undefined && { socketPath }),
    ...(socketPath !== undefined && config.forwardName !== undefined && { forwardName: config.forwardName }),
  };
}
