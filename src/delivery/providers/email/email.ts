import type { DeliveryResult, ProviderKind, SettingDeclaration, SettingValues } from '../../provider.js';
import { classifyNetworkError } from '../../classify.js';
import { optionalInteger, optionalString, requiredString } from '../../setting-values.js';
import { emailHtml, emailText, messageIdFor } from './email-content.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'host',
    type: 'string',
    required: true,
    secret: false,
    help: 'The SMTP server, e.g. smtp.example.com.',
  },
  {
    name: 'port',
    type: 'integer',
    required: false,
    secret: false,
    help: 'The SMTP port: 587 for STARTTLS, 465 for TLS, 25 for none.',
    default: 587,
  },
  {
    name: 'security',
    type: 'enum',
    required: false,
    secret: false,
    help: 'starttls (upgrade after connecting, required), tls (encrypted from the start) or none (plain, local relays only).',
    choices: ['starttls', 'tls', 'none'],
    default: 'starttls',
  },
  {
    name: 'username',
    type: 'string',
    required: false,
    secret: false,
    help: 'The SMTP user, when the server needs a login.',
  },
  {
    name: 'password',
    type: 'string',
    required: false,
    secret: true,
    help: 'The SMTP password or app password (e.g. a Gmail or Fastmail app password).',
  },
  {
    name: 'from',
    type: 'string',
    required: true,
    secret: false,
    help: 'The sender address, e.g. Notify <notify@example.com>.',
  },
  {
    name: 'to',
    type: 'string',
    required: true,
    secret: false,
    help: 'One or more recipient addresses, separated by commas.',
  },
];

const TIMEOUT_MS = 15_000;

/** nodemailer is loaded with the first e-mail, so a broker that sends none never holds it in memory. */
async function transport(settings: SettingValues) {
  const { default: nodemailer } = await import('nodemailer');
  const security = optionalString(settings, 'security') ?? 'starttls';
  const user = optionalString(settings, 'username');
  return nodemailer.createTransport({
    host: requiredString(settings, 'host'),
    port: optionalInteger(settings, 'port') ?? (security === 'tls' ? 465 : 587),
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    ...(user === undefined ? {} : { auth: { user, pass: optionalString(settings, 'password') ?? '' } }),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
}

/** SMTP 4xx is transient and 5xx permanent (RFC 5321 §4.2.1); anything before an answer is the network's. */
export function classifySmtpError(error: unknown, aborted: boolean): DeliveryResult {
  if (aborted) return { outcome: 'retry', reason: 'timeout' };
  const { responseCode, code, originalCode } = (error ?? {}) as {
    responseCode?: unknown;
    code?: unknown;
    originalCode?: unknown;
  };
  // The server answered STARTTLS with a refusal: the settings ask for encryption it does not offer.
  if (code === 'ETLS' && typeof responseCode === 'number')
    return { outcome: 'reject', reason: 'smtp_starttls_unavailable' };
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 600) {
    const reason = `smtp_${responseCode}` as const;
    return responseCode < 500 ? { outcome: 'retry', reason } : { outcome: 'reject', reason };
  }
  if (code === 'EAUTH') return { outcome: 'reject', reason: 'smtp_auth_failed' };
  if (code === 'ETLS') return { outcome: 'retry', reason: 'tls_error' };
  if (code === 'EENVELOPE') return { outcome: 'reject', reason: 'smtp_bad_address' };
  // nodemailer wraps socket errors as ESOCKET and keeps the system's code beside it.
  if (typeof originalCode === 'string')
    return classifyNetworkError(Object.assign(new Error(), { code: originalCode }), false);
  return classifyNetworkError(error, false);
}

/** A promise that rejects when the signal fires (after `onAbort`), and a way to stop listening. */
function whenAborted(signal: AbortSignal, onAbort: () => void): { aborted: Promise<never>; dispose(): void } {
  let listener = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    listener = () => {
      onAbort();
      reject(new Error('aborted'));
    };
  });
  aborted.catch(() => undefined);
  signal.addEventListener('abort', listener, { once: true });
  return { aborted, dispose: () => signal.removeEventListener('abort', listener) };
}

export const email: ProviderKind = {
  id: 'email',
  title: 'E-mail (SMTP)',
  description: 'An e-mail with a plain-text and a small HTML part, through any SMTP server.',
  settings: SETTINGS,
  lifecycle: { update: false, clear: false },
  async deliver(operation, { settings, signal }) {
    const n = operation.notification;
    const mailer = await transport(settings);
    // nodemailer takes no signal: the attempt ends when the signal fires, and closing drops the socket.
    const cut = whenAborted(signal, () => mailer.close());
    try {
      if (signal.aborted) return { outcome: 'retry', reason: 'timeout' };
      const messageId = messageIdFor(operation.idempotencyKey);
      const sending = mailer.sendMail({
        from: requiredString(settings, 'from'),
        to: requiredString(settings, 'to'),
        subject: n.title,
        text: emailText(n),
        html: emailHtml(n),
        messageId,
        headers: { 'X-Notify-Idempotency-Key': operation.idempotencyKey, 'X-Notify-Event': operation.event },
      });
      sending.catch(() => undefined);
      await Promise.race([sending, cut.aborted]);
      return { outcome: 'delivered', reference: messageId };
    } catch (error) {
      return classifySmtpError(error, signal.aborted);
    } finally {
      cut.dispose();
      mailer.close();
    }
  },
};
