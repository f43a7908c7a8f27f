import type { BrokerProcess } from '../../test/support/broker-process.js';
import type { LoadOptions } from './load.js';

/** A server to put under load: the URL, the headers it needs, and its process for CPU per request. */
export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  pid?: number;
}

/** `path` on the broker, with its token. */
export function brokerTarget(broker: BrokerProcess, path: string): LoadTarget {
  return {
    url: `${broker.baseUrl}${path}`,
    headers: { authorization: `Bearer ${broker.token}` },
    ...(broker.child.pid !== undefined && { pid: broker.child.pid }),
  };
}

/** POSTs of one JSON body to the target, over `connections` connections. */
export function jsonPosts(target: LoadTarget, body: string, connections: number): LoadOptions {
  return {
    url: target.url,
    method: 'POST',
    connections,
    headers: { ...target.headers, 'content-type': 'application/json' },
    body,
    ...(target.pid !== undefined && { pid: target.pid }),
  };
}
