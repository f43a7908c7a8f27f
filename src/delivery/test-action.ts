import { formatTimestamp } from '../domain/notification.js';
import type { DeliveryOperation, DeliveryResult, ProviderKind } from './provider.js';
import type { FixedReasonCode, ReasonCode } from './reason-codes.js';

/**
 * A provider's Test action, without its I/O: the fixed notification it sends (through the provider's
 * own adapter, as a real delivery) and the one sentence it answers with. The sentence is built from
 * the result's codes only, so it never repeats a secret, a URL or a receiver's reply.
 */

export const TEST_TITLE = 'Notify test';
export const TEST_MESSAGE = 'If you can read this, Notify can reach you here.';

/** The test send; ids carry the time, so a receiver that drops duplicates still shows a second test. */
export function testOperation(providerId: string, now: number): DeliveryOperation {
  const at = formatTimestamp(now);
  return {
    operation: 'send',
    event: 'notification.test',
    idempotencyKey: `test.${providerId}.${now}`,
    notification: {
      id: `test-${now}`,
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

/** The answer of POST /v1/providers/{id}/test (TEST_OUTCOME in src/http/provider-routes.ts). */
export interface TestOutcome {
  outcome: DeliveryResult['outcome'];
  reason?: ReasonCode;
  status?: number;
  /** One sentence for a person: what happened and what to do. */
  summary: string;
}

/** What went wrong, in words that end the sentence after "… the test notification: ". */
const PHRASES: Readonly<Record<FixedReasonCode, string>> = {
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
  unexpected_answer: 'the service answered with something it should not have sent',
  address_not_allowed:
    'the host is on this machine or a private network (or its URL breaks the relay rules), which the provider does not allow',
  credentials_refused: 'the service refused the token (wrong, revoked or of the wrong kind)',
  missing_scope: 'the token lacks a permission (scope) the call needs',
  channel_not_found: 'the service knows no such channel',
  not_in_channel: 'the app is not a member of the channel: invite it',
  message_not_found: 'the message to edit is gone',
  service_refused: 'the service refused the request',
  service_unavailable: 'the service reported a temporary failure',
  socket_overflow: 'answers arrived faster than they could be read',
  socket_mode_disabled: "Socket Mode is turned off in the app's settings",
  gateway_refused: 'the Discord Gateway refused the session (intents, version or sharding)',
  invalid_topic: 'the topic may hold only letters, digits, - and _ (at most 64)',
  invalid_signing_secret: 'the signing secret is not whsec_ followed by base64',
  invalid_bearer_token: 'the bearer token holds a line break or a NUL character',
  invalid_header_name: 'the extra header name is not a valid header name',
  invalid_header_value: 'the extra header value holds a line break or a NUL character',
  client_token_missing: 'deleting a message needs a client token',
  reference_missing: 'the message to delete is not known',
  smtp_starttls_unavailable: 'the mail server does not offer STARTTLS',
  smtp_auth_failed: 'the mail server refused the login',
  smtp_bad_address: 'the mail server refused the sender or a recipient address',
  apprise_not_installed: 'the apprise command is not installed',
  apprise_invalid_url: 'Apprise could not parse the URL',
  apprise_usage_error: 'Apprise did not accept its command line',
  apprise_killed: 'the apprise process was killed',
  apprise_failed_to_start: 'the apprise command could not be started',
  mqtt_bad_credentials: 'the MQTT broker refused the user name or password',
  mqtt_not_authorized: 'the MQTT broker does not authorize this login',
  mqtt_refused: 'the MQTT broker refused the connection',
  mqtt_subscription_refused: 'the MQTT broker refused the subscription to the answer topics',
  mqtt_ca_file_unreadable: 'the CA file cannot be read',
  provider_secrets_unreadable:
    'its secrets could not be decrypted (set them again, or unlock the OS keyring)',
  provider_deleted: 'the provider was deleted',
  provider_disabled: 'the provider is disabled',
  provider_kind_unknown: 'this build has no provider of its kind',
  send_not_delivered: 'the first delivery of the notification never arrived',
  interrupted: 'the broker stopped during the attempt',
  delivery_thread_exited: 'the delivery thread ended during the attempt',
};

export function describeReason(reason: ReasonCode): string {
  const http = /^http_(\d+)$/.exec(reason);
  if (http) return `the receiver answered HTTP ${http[1]}`;
  const smtp = /^smtp_(\d+)$/.exec(reason);
  if (smtp) return `the mail server answered ${smtp[1]}`;
  const apprise = /^apprise_exit_(\d+)$/.exec(reason);
  if (apprise) return `Apprise reported a failed service (exit status ${apprise[1]})`;
  const error = /^error_(.+)$/.exec(reason);
  if (error) return `the provider failed unexpectedly (${error[1]})`;
  return PHRASES[reason as FixedReasonCode];
}

export function testOutcome(kind: ProviderKind, result: DeliveryResult): TestOutcome {
  const status = result.status === undefined ? {} : { status: result.status };
  switch (result.outcome) {
    case 'delivered':
      return {
        outcome: 'delivered',
        ...status,
        summary: `${kind.title} accepted the test notification${result.status === undefined ? '' : ` (HTTP ${result.status})`}.`,
      };
    case 'retry':
      return {
        outcome: 'retry',
        reason: result.reason,
        ...status,
        summary: `${kind.title} did not take the test notification: ${describeReason(result.reason)}; a real notification would be retried.`,
      };
    case 'reject':
      return {
        outcome: 'reject',
        reason: result.reason,
        ...status,
        summary: `${kind.title} refused the test notification: ${describeReason(result.reason)}; check the provider's settings.`,
      };
  }
}
