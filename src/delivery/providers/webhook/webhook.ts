import { VERSION } from '../../../version.js';
import { sendHttp } from '../../http-delivery.js';
import type { ProviderKind, SettingDeclaration } from '../../provider.js';
import { optionalString, requiredString } from '../../setting-values.js';
import { webhookEventBody } from './event-body.js';
import { signingSecretProblem, standardWebhookSignature } from './signature.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'url',
    required: true,
    secret: false,
    help: 'The http(s) address that receives a JSON POST for every event.',
    credentialsIn:
      'headerName Authorization with the secret headerValue "Basic <base64 of user:password>", or the secret bearerToken',
  },
  {
    name: 'signingSecret',
    type: 'string',
    required: false,
    secret: true,
    help: 'A Standard Webhooks secret (whsec_ followed by base64); when set, every request is signed.',
    problem: signingSecretProblem,
  },
  {
    name: 'bearerToken',
    type: 'string',
    required: false,
    secret: true,
    help: 'Sent as "Authorization: Bearer <token>" when set.',
  },
  {
    name: 'headerName',
    type: 'string',
    required: false,
    secret: false,
    help: 'The name of one extra header to send, e.g. X-Api-Key (needs headerValue).',
  },
  {
    name: 'headerValue',
    type: 'string',
    required: false,
    secret: true,
    help: 'The value of the extra header named by headerName.',
  },
];

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;

export const webhook: ProviderKind = {
  id: 'webhook',
  title: 'Webhook',
  description:
    'A signed JSON POST (Standard Webhooks) for every created, updated, resolved or dismissed notification.',
  settings: SETTINGS,
  lifecycle: { update: true, clear: true },
  async deliver(operation, { settings, signal }) {
    const body = JSON.stringify(webhookEventBody(operation));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': `notify/${VERSION}`,
      'webhook-id': operation.idempotencyKey,
      'webhook-timestamp': String(timestamp),
      'idempotency-key': operation.idempotencyKey,
    };
    const secret = optionalString(settings, 'signingSecret');
    if (secret !== undefined) {
      const signature = standardWebhookSignature(secret, operation.idempotencyKey, timestamp, body);
      if (signature === undefined) return { outcome: 'reject', reason: 'invalid_signing_secret' };
      headers['webhook-signature'] = signature;
    }
    const bearer = optionalString(settings, 'bearerToken');
    if (bearer !== undefined && !HEADER_VALUE.test(bearer))
      return { outcome: 'reject', reason: 'invalid_bearer_token' };
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    const headerName = optionalString(settings, 'headerName');
    if (headerName !== undefined) {
      if (!HEADER_NAME.test(headerName)) return { outcome: 'reject', reason: 'invalid_header_name' };
      const headerValue = optionalString(settings, 'headerValue') ?? '';
      if (!HEADER_VALUE.test(headerValue)) return { outcome: 'reject', reason: 'invalid_header_value' };
      headers[headerName.toLowerCase()] = headerValue;
    }
    const answer = await sendHttp(
      { method: 'POST', url: requiredString(settings, 'url'), headers, body },
      signal,
    );
    return answer.result;
  },
};
