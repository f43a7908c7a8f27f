import type { IClientOptions, MqttClient } from 'mqtt';
import { classifyNetworkError } from '../../classify.js';
import type { SettingValues } from '../../provider.js';
import type { ReasonCode } from '../../reason-codes.js';
import { brokerAddress, type BrokerAddress } from './mqtt-settings.js';

/**
 * Connecting to the MQTT broker with mqtt.js, loaded on first use so a broker that delivers nothing
 * over MQTT never holds it in memory. Reconnecting is ours (the pool and the listener), not mqtt.js's:
 * its own retry loop would hide a refused password behind endless attempts.
 */

export type Opened = { client: MqttClient } | { failure: { reason: ReasonCode; refused: boolean } };

const CONNECT_TIMEOUT_MS = 10_000;

/** CONNACK codes of MQTT 3.1.1 (4, 5) and 5.0 (134, 135): the broker refuses who we are. */
const REFUSALS: Readonly<Record<number, ReasonCode>> = {
  4: 'mqtt_bad_credentials',
  5: 'mqtt_not_authorized',
  134: 'mqtt_bad_credentials',
  135: 'mqtt_not_authorized',
};

export function classifyMqttError(
  error: unknown,
  aborted: boolean,
): { reason: ReasonCode; refused: boolean } {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') {
    const refusal = REFUSALS[code];
    return refusal ? { reason: refusal, refused: true } : { reason: 'mqtt_refused', refused: false };
  }
  const result = classifyNetworkError(error, aborted);
  return { reason: result.outcome === 'delivered' ? 'network_error' : result.reason, refused: false };
}

/**
 * Connects, or says why not. `prepare` sees the client before it connects: a listener attaches its
 * message handler there, so messages the broker kept for a persistent session are never missed.
 */
export async function openClient(
  settings: SettingValues,
  options: Pick<IClientOptions, 'clientId' | 'clean'>,
  signal: AbortSignal,
  prepare?: (client: MqttClient) => void,
): Promise<Opened> {
  let address: BrokerAddress;
  try {
    address = brokerAddress(settings);
  } catch {
    return { failure: { reason: 'mqtt_ca_file_unreadable', refused: true } };
  }
  const { connect } = await import('mqtt');
  const { url, ...credentials } = address;
  const client = connect(url, {
    ...credentials,
    ...options,
    reconnectPeriod: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    protocolVersion: 4,
  });
  // Every failure also closes the connection, which is what the pool and the listener watch.
  client.on('error', () => undefined);
  prepare?.(client);
  const listeners: [string, (...args: never[]) => void][] = [];
  let abort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const on = (event: string, listener: (...args: never[]) => void) => {
        listeners.push([event, listener]);
        client.on(event as 'connect', listener as () => void);
      };
      on('connect', () => resolve());
      on('error', (error: Error) => reject(error));
      on('close', () => reject(Object.assign(new Error('closed'), { code: 'ECONNRESET' })));
      abort = () => reject(new Error('aborted'));
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
    return { client };
  } catch (error) {
    client.end(true);
    return { failure: classifyMqttError(error, signal.aborted) };
  } finally {
    signal.removeEventListener('abort', abort!);
    for (const [event, listener] of listeners) client.off(event as 'connect', listener as () => void);
  }
}
