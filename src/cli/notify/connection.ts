import { resolvePaths } from '../../config/paths.js';
import { NotifyClient } from '../../client/notify-client.js';
import { socketOf, type BrokerAddress } from '../../client/transport.js';
import { optionText, type ParsedArgs } from './args.js';
import { isPort, readClientConfig, type ConfigRead } from './client-config.js';
import { CliError } from './failure.js';
import { printError } from './output.js';

export const DEFAULT_PORT = 47821;

/** Where the token came from, for the hint when the broker refuses it. */
export type TokenSource = 'flag' | 'env' | 'config' | 'none';

export interface Connection extends BrokerAddress {
  port: number;
  token?: string;
  tokenSource: TokenSource;
  configFile: string;
  /** Set when config.json exists but could not be used (already reported on stderr). */
  configProblem?: string;
}

/**
 * Spec "Client command": port from --port, else NOTIFY_PORT, else config.json, else 47821; token
 * from --token, else NOTIFY_TOKEN, else config.json's authToken. config.json is read only when a
 * flag or variable leaves something open. The broker's Unix socket (issue 33) replaces the port when
 * NOTIFY_SOCKET names one, or config.json's `socket` does and no --port or NOTIFY_PORT was given.
 */
export function resolveConnection(parsed: ParsedArgs, env: NodeJS.ProcessEnv = process.env): Connection {
  const configFile = resolvePaths(env).configFile;
  const portFlag = optionText(parsed, 'port');
  const tokenFlag = optionText(parsed, 'token');
  const envPort = nonEmpty(env['NOTIFY_PORT']);
  const envToken = nonEmpty(env['NOTIFY_TOKEN']);

  const explicitPort =
    portFlag !== undefined
      ? parsePort(portFlag, '--port')
      : envPort !== undefined
        ? parsePort(envPort, 'NOTIFY_PORT')
        : undefined;
  const explicitToken = nonEmpty(tokenFlag) ?? envToken;
  const envSocket = nonEmpty(env['NOTIFY_SOCKET']);
  const read: ConfigRead =
    explicitPort === undefined || explicitToken === undefined
      ? readConfigLeniently(configFile)
      : { state: 'missing' };
  const config = read.state === 'found' ? read.config : {};
  const port = explicitPort ?? config.port ?? DEFAULT_PORT;
  const token = explicitToken ?? config.authToken;
  const socketPath = envSocket ?? (explicitPort === undefined ? config.socket : undefined);
  const tokenSource: TokenSource =
    nonEmpty(tokenFlag) !== undefined
      ? 'flag'
      : envToken !== undefined
        ? 'env'
        : token !== undefined
          ? 'config'
          : 'none';
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    configFile,
    tokenSource,
    ...(token !== undefined && { token }),
    ...(socketPath !== undefined && { socketPath }),
    ...(socketPath !== undefined && config.forwardName !== undefined && { forwardName: config.forwardName }),
    ...(read.state === 'unreadable' && { configProblem: read.problem }),
  };
}

/** `timeoutMs` is for notifyctl's slow calls (a provider's test); `notify` keeps the client's default. */
export function createClient(connection: Connection, timeoutMs?: number): NotifyClient {
  return new NotifyClient({
    baseUrl: connection.baseUrl,
    ...socketOf(connection),
    ...(connection.token !== undefined && { token: connection.token }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
}

/**
 * Spec: without a token the request still goes out (the broker answers 401), after a warning. When
 * config.json exists but is broken, "start Notify once" would be wrong advice: the file is the problem.
 */
export function warnWhenTokenless(connection: Connection, printWarning = printError): void {
  if (connection.token !== undefined) return;
  if (connection.configProblem !== undefined) {
    printWarning(
      `Warning: no token found: fix ${connection.configFile} (notifyd refuses to start with it too), ` +
        `or pass --token or set NOTIFY_TOKEN. Sending the request without a token.`,
    );
    return;
  }
  printWarning(
    `Warning: no token found. Pass --token, set NOTIFY_TOKEN, or start Notify once so that it writes ` +
      `authToken to ${connection.configFile}. Sending the request without a token.`,
  );
}

/** A broken config.json is the broker's to report; the client warns and goes on with defaults. */
function readConfigLeniently(file: string): ConfigRead {
  const read = readClientConfig(file);
  if (read.state === 'unreadable') printError(`Warning: ${read.problem}; ignoring it.`);
  return read;
}

function parsePort(text: string, source: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!isPort(value)) throw new CliError(`${source} must be an integer from 1 to 65535.`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
