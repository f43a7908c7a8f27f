import { relayExchange, resolveRelayHost, type RelayReply } from '../../../client/relay-transport.js';
import { neutralize } from '../../../domain/neutralize.js';
import { classifyAddress } from '../../../domain/relay/address-class.js';
import { checkAddresses, type RelayUrl } from '../../../domain/relay/relay-url.js';
import { relayErrorCode } from '../../../domain/relay/relay-protocol.js';
import { CliError } from '../failure.js';

/** Every relay call of `notify relay pair` gives up after 10 seconds, as its broker calls do. */
const RELAY_TIMEOUT_MS = 10_000;

/** One relay, its host resolved and checked once: every request goes to those addresses. */
export class RelaySession {
  private constructor(
    readonly url: RelayUrl,
    private readonly addresses: readonly string[],
    private readonly signal: AbortSignal,
  ) {}

  /** Resolves the host and applies the URL rules to every address; refuses with the rule's sentence. */
  static async open(url: RelayUrl, allowPrivate: boolean, signal: AbortSignal): Promise<RelaySession> {
    let addresses: string[];
    if (classifyAddress(url.host) !== undefined) {
      addresses = [url.host];
    } else {
      try {
        addresses = await resolveRelayHost(url.host);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new CliError(`Could not resolve ${url.host} (${code}); check the --url.`);
      }
    }
    const checked = checkAddresses(url, addresses, allowPrivate);
    if (!checked.ok) throw new CliError(checked.problem);
    return new RelaySession(url, addresses, signal);
  }

  /** `path` is relative to the relay's base URL; `bearer` goes in the Authorization header. */
  call(
    method: 'GET' | 'POST',
    path: string,
    options: { bearer?: string; body?: unknown } = {},
  ): Promise<RelayReply> {
    return relayExchange({
      method,
      url: new URL(`${this.url.base}${path}`),
      addresses: this.addresses,
      headers: options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      timeoutMs: RELAY_TIMEOUT_MS,
      signal: this.signal,
    });
  }
}

/** `GET /x answered 404 Not Found (not_found)`: what a relay said, never a secret. */
export function describeReply(method: string, path: string, reply: RelayReply): string {
  const code = relayErrorCode(reply.json);
  return neutralize(
    `${method} ${path} answered ${reply.status} ${reply.statusText}${code === undefined ? '' : ` (${code})`}`,
  );
}
