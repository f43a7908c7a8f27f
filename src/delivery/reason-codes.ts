/**
 * Every reason code a delivery attempt can end with, in one list. A result's reason is typed by it, so
 * a provider, the attempt runner or the dispatcher cannot produce a code this list lacks, and the docs
 * test checks that docs/providers.md explains each one. Codes are short and never carry exception
 * text, a URL, a token or a receiver's reply.
 */

export const REASON_CODES = [
  // Before an answer: the network.
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns_failure',
  'host_unreachable',
  'tls_error',
  'network_error',
  // HTTP providers.
  'invalid_url',
  'redirect_cross_host',
  'too_many_redirects',
  'unexpected_answer',
  'address_not_allowed',
  // Chat services (Slack, Discord): what the service said, by name.
  'credentials_refused',
  'missing_scope',
  'channel_not_found',
  'not_in_channel',
  'message_not_found',
  'service_refused',
  'service_unavailable',
  // Channels that listen on a socket.
  'socket_overflow',
  'socket_mode_disabled',
  'gateway_refused',
  // Settings a provider cannot use.
  'invalid_topic',
  'invalid_signing_secret',
  'invalid_bearer_token',
  'invalid_header_name',
  'invalid_header_value',
  'client_token_missing',
  'reference_missing',
  'smtp_starttls_unavailable',
  'smtp_auth_failed',
  'smtp_bad_address',
  'apprise_not_installed',
  'apprise_invalid_url',
  'apprise_usage_error',
  'apprise_killed',
  'apprise_failed_to_start',
  'mqtt_bad_credentials',
  'mqtt_not_authorized',
  'mqtt_refused',
  'mqtt_subscription_refused',
  'mqtt_ca_file_unreadable',
  // The outbox.
  'provider_secrets_unreadable',
  'provider_deleted',
  'provider_disabled',
  'provider_kind_unknown',
  'send_not_delivered',
  'interrupted',
  'delivery_thread_exited',
] as const;

/** Codes that carry a number or a name, written as docs/providers.md shows them (`ReasonCode` below). */
export const REASON_CODE_FAMILIES = ['http_NNN', 'smtp_NNN', 'apprise_exit_N', 'error_<class>'] as const;

export type FixedReasonCode = (typeof REASON_CODES)[number];

/** The families are the HTTP status, the SMTP reply code, Apprise's exit status and an error's class. */
export type ReasonCode =
  FixedReasonCode | `http_${number}` | `smtp_${number}` | `apprise_exit_${number}` | `error_${string}`;
