import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing: HMAC-SHA256 over `id.timestamp.body` with the base64 key that follows
 * the `whsec_` prefix, sent as `v1,<base64>`. Returns undefined for a secret that is not such a key.
 */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string | undefined {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) return undefined;
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The `problem` of the signingSecret setting: what delivery would refuse is refused when it is saved. */
export function signingSecretProblem(secret: string): string | undefined {
  if (standardWebhookSignature(secret, 'probe', 0, '') !== undefined) return undefined;
  return 'must be a Standard Webhooks secret: whsec_ followed by base64, as your receiver shows it';
}
