import { randomUUID } from 'node:crypto';
import type { DeliveryOperation, DeliveryResult, ProviderKind, SettingValues } from './provider.js';

/**
 * A provider's Test action: the fixed payload below, through the same adapter as real deliveries,
 * answered in one sentence. The sentence is built from the result's codes only, so it never repeats a
 * secret, a URL or a receiver's reply.
 */

export const TEST_TITLE = 'Notify test';
export const TEST_MESSAGE = 'If you can read this, Notify can reach you here.';
export const TEST_ATTEMPT_TIMEOUT_MS = 15_000;

export function testOperation(now: Date): DeliveryOperation {
  const at = now.toISOString();
  return {
    operation: 'send',
    event: 'notification.test',
    idempotencyKey: `test-${randomUUID()}`,
    notification: {
      id: 'test',
      title: TEST_TITLE,
      message: TEST_MESSAGE,
      type: 'info',
      priority: 'normal',
      status: 'active',
      agent: 'notify',
      createdAt: at,
      updatedAt: at,
    },
  };
}

const REASONS: Readonly<Record<string, string>> = {
  timeout: 'no answer within the time-out',
  connection_refused: 'the connection was refused',
  connection_reset: 'the connection was dropped',
  dns_failure: 'the host name did not resolve',
  host_unreachable: 'the host is unreachable',
  tls_error: 'the TLS handshake failed',
  network_error: 'a network error',
  invalid_url: 'the URL is not a valid http(s) URL',
  redirect_cross_host: 'it redirected to another host, which Notify does not follow',
  too_many_redirects: 'too many redirects',
  apprise_not_installed: 'the apprise command is not installed',
  apprise_invalid_url: 'Apprise could not parse the URL',
  smtp_starttls_unavailable: 'the mail server does not offer STARTTLS',
  smtp_auth_failed: 'the mail server refused the login',
};

export function describeReason(reason: string): string {
  const http = /^http_(\d{3})$/.exec(reason);
  if (http) return `the receiver answered HTTP ${http[1]}`;
  const smtp = /^smtp_(\d{3})$/.exec(reason);
  if (smtp) return `the mail server answered ${smtp[1]}`;
  return REASONS[reason] ?? reason.replace(/_/g, ' ');
}

export function describeTestResult(kind: ProviderKind, result: DeliveryResult): string {
  switch (result.outcome) {
    case 'delivered':
      return `${kind.title} accepted the test notification${result.status === undefined ? '' : ` (HTTP ${result.status})`}.`;
    case 'retry':
      return `${kind.title} did not take the test notification: ${describeReason(result.reason)}; a real notification would be retried.`;
    case 'reject':
      return `${kind.title} refused the test notification: ${describeReason(result.reason)}; check the provider's settings.`;
  }
}

export interface TestOutcome {
  result: DeliveryResult;
  summary: string;
}

export async function testProvider(
  kind: ProviderKind,
  settings: SettingValues,
  timeoutMs = TEST_ATTEMPT_TIMEOUT_MS,
): Promise<TestOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  let result: DeliveryResult;
  try {
    result = await kind.deliver(testOperation(new Date()), { settings, signal });
  } catch {
    result = { outcome: 'retry', reason: 'provider_error' };
  }
  return { result, summary: describeTestResult(kind, result) };
}
