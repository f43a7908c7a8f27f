import { randomBytes } from 'node:crypto';
import { at, startWebhookStandIn, type WebhookStandIn } from './webhook-stand-in.js';

/**
 * A stand-in for a Teams Workflows webhook ("Post to a channel when a webhook request is received"):
 * the Power Automate trigger URL with its `sig` capability, answering 202 Accepted. It checks the
 * message as the workflow's "Post card in a chat or channel" step needs it and the Adaptive Card
 * schema's essentials (adaptivecards.io/schemas/adaptive-card.json): attachments of content type
 * application/vnd.microsoft.card.adaptive whose content is an AdaptiveCard of version 1.0 to 1.6,
 * body elements with a known type, TextBlocks with text and valid style values, Action.OpenUrl with a
 * title and an absolute URL. A wrong `sig` gets 401, as Logic Apps answers.
 */

const ELEMENTS = new Set([
  'TextBlock',
  'RichTextBlock',
  'Image',
  'Container',
  'ColumnSet',
  'FactSet',
  'ActionSet',
]);
const ACTIONS = new Set([
  'Action.OpenUrl',
  'Action.ShowCard',
  'Action.ToggleVisibility',
  'Action.Execute',
  'Action.Submit',
]);
const TEXT_ENUMS: Readonly<Record<string, readonly string[]>> = {
  size: ['Default', 'Small', 'Medium', 'Large', 'ExtraLarge'],
  weight: ['Default', 'Lighter', 'Bolder'],
  color: ['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention'],
  spacing: ['None', 'Small', 'Default', 'Medium', 'Large', 'ExtraLarge', 'Padding'],
};

function isAbsoluteUrl(value: unknown): boolean {
  try {
    return typeof value === 'string' && /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

function textBlockProblem(element: Record<string, unknown>, where: string): string | undefined {
  if (typeof element['text'] !== 'string' || element['text'] === '') return `${where}.text is required`;
  for (const [name, allowed] of Object.entries(TEXT_ENUMS)) {
    const value = element[name];
    if (value !== undefined && !allowed.includes(value as string)) return `${where}.${name} is not valid`;
  }
  for (const name of ['wrap', 'isSubtle']) {
    if (element[name] !== undefined && typeof element[name] !== 'boolean')
      return `${where}.${name} must be a boolean`;
  }
  return undefined;
}

export function adaptiveCardProblem(card: unknown): string | undefined {
  if (at(card, 'type') !== 'AdaptiveCard') return 'content.type must be AdaptiveCard';
  const version = at(card, 'version');
  if (typeof version !== 'string' || !/^1\.[0-6]$/.test(version)) return 'content.version must be 1.0 to 1.6';
  const body = at(card, 'body');
  if (body !== undefined && !Array.isArray(body)) return 'content.body must be an array';
  for (const [index, element] of ((body ?? []) as Record<string, unknown>[]).entries()) {
    const where = `content.body[${index}]`;
    if (!ELEMENTS.has(element['type'] as string)) return `${where}.type is unknown`;
    if (element['type'] === 'TextBlock') {
      const problem = textBlockProblem(element, where);
      if (problem) return problem;
    }
  }
  const actions = at(card, 'actions');
  if (actions !== undefined && !Array.isArray(actions)) return 'content.actions must be an array';
  for (const [index, action] of ((actions ?? []) as Record<string, unknown>[]).entries()) {
    const where = `content.actions[${index}]`;
    if (!ACTIONS.has(action['type'] as string)) return `${where}.type is unknown`;
    if (action['type'] === 'Action.OpenUrl' && !isAbsoluteUrl(action['url']))
      return `${where}.url must be an absolute URL`;
    if (typeof action['title'] !== 'string') return `${where}.title is required`;
  }
  return undefined;
}

export function teamsMessageProblem(message: unknown): string | undefined {
  const attachments = at(message, 'attachments');
  if (!Array.isArray(attachments) || attachments.length === 0) return 'attachments must hold the card';
  for (const attachment of attachments) {
    if (at(attachment, 'contentType') !== 'application/vnd.microsoft.card.adaptive')
      return 'attachments[].contentType must be application/vnd.microsoft.card.adaptive';
    const problem = adaptiveCardProblem(at(attachment, 'content'));
    if (problem) return problem;
  }
  const type = at(message, 'type');
  return type === undefined || type === 'message' ? undefined : 'type must be message';
}

/** Every TextBlock's text of a card, in order: what a person reads in the channel. */
export function teamsCardText(message: unknown): string[] {
  const body = at(message, 'attachments', 0, 'content', 'body');
  return ((Array.isArray(body) ? body : []) as { type: string; text?: string }[])
    .filter((element) => element.type === 'TextBlock')
    .map((element) => element.text ?? '');
}

export interface TeamsWorkflow extends WebhookStandIn {
  /** The trigger URL to give the provider (its `sig` is the secret). */
  webhookUrl: string;
  sig: string;
}

export async function startTeamsWorkflow(): Promise<TeamsWorkflow> {
  const sig = randomBytes(24).toString('base64url');
  const path = `/workflows/${randomBytes(16).toString('hex')}/triggers/manual/paths/invoke`;
  const standIn = await startWebhookStandIn({
    check(request, body) {
      const url = new URL(request.url, 'http://stand-in');
      if (request.method !== 'POST' || url.pathname !== path) return 'no such workflow';
      if (url.searchParams.get('sig') !== sig) return 'the signature is not valid';
      if (!String(request.headers['content-type']).startsWith('application/json'))
        return 'the content type must be application/json';
      return teamsMessageProblem(body);
    },
    accept: () => ({ status: 202 }),
  });
  const webhookUrl = `http://127.0.0.1:${standIn.port}${path}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`;
  return { ...standIn, webhookUrl, sig };
}
