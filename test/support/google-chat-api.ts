import { randomBytes } from 'node:crypto';
import { at, startWebhookStandIn, type WebhookStandIn } from './webhook-stand-in.js';

/**
 * A stand-in for a Google Chat incoming webhook: `POST /v1/spaces/{space}/messages?key=…&token=…`
 * (spaces.messages.create), answering 200 with the created Message. It checks the request as the
 * Chat API reference describes it: a known messageReplyOption, a message with `text` or `cardsV2`,
 * each card with a `cardId`, a header with a title and sections of widgets where each widget is
 * exactly one known kind (textParagraph with text, buttonList whose buttons have text and an openLink
 * URL, ...), and `thread.threadKey` a string. A wrong key or token gets 401.
 */

const WIDGETS = new Set([
  'textParagraph',
  'decoratedText',
  'buttonList',
  'divider',
  'image',
  'columns',
  'grid',
]);
const REPLY_OPTIONS = new Set([
  'MESSAGE_REPLY_OPTION_UNSPECIFIED',
  'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
  'REPLY_MESSAGE_OR_FAIL',
]);

function widgetProblem(widget: unknown, where: string): string | undefined {
  const kinds = Object.keys(widget as object).filter((name) => WIDGETS.has(name));
  if (kinds.length !== 1 || Object.keys(widget as object).length !== 1)
    return `${where} must be exactly one widget`;
  if (kinds[0] === 'textParagraph' && typeof at(widget, 'textParagraph', 'text') !== 'string')
    return `${where}.textParagraph.text is required`;
  if (kinds[0] === 'buttonList') {
    const buttons = at(widget, 'buttonList', 'buttons');
    if (!Array.isArray(buttons) || buttons.length === 0) return `${where}.buttonList.buttons is required`;
    for (const button of buttons) {
      if (typeof at(button, 'text') !== 'string') return `${where} button text is required`;
      const url = at(button, 'onClick', 'openLink', 'url');
      if (typeof url !== 'string' || !/^https?:\/\//.test(url))
        return `${where} button needs onClick.openLink.url`;
    }
  }
  return undefined;
}

export function chatMessageProblem(message: unknown): string | undefined {
  const cards = at(message, 'cardsV2');
  if (typeof at(message, 'text') !== 'string' && !Array.isArray(cards))
    return 'the message needs text or cardsV2';
  for (const [c, card] of ((cards ?? []) as unknown[]).entries()) {
    if (typeof at(card, 'cardId') !== 'string') return `cardsV2[${c}].cardId is required`;
    const title = at(card, 'card', 'header', 'title');
    if (typeof title !== 'string' || title === '') return `cardsV2[${c}].card.header.title is required`;
    const sections = at(card, 'card', 'sections');
    if (!Array.isArray(sections)) return `cardsV2[${c}].card.sections must be an array`;
    for (const [s, section] of sections.entries()) {
      const widgets = at(section, 'widgets');
      if (!Array.isArray(widgets) || widgets.length === 0)
        return `cardsV2[${c}].card.sections[${s}].widgets is required`;
      for (const [w, widget] of widgets.entries()) {
        const problem = widgetProblem(widget, `cardsV2[${c}].card.sections[${s}].widgets[${w}]`);
        if (problem) return problem;
      }
    }
  }
  const thread = at(message, 'thread');
  if (thread !== undefined && typeof at(thread, 'threadKey') !== 'string')
    return 'thread.threadKey must be a string';
  return undefined;
}

/** The header and every textParagraph's text of the first card: what a person reads in the space. */
export function chatCardText(message: unknown): string[] {
  const card = at(message, 'cardsV2', 0, 'card');
  const widgets = ((at(card, 'sections', 0, 'widgets') ?? []) as unknown[])
    .map((widget) => at(widget, 'textParagraph', 'text'))
    .filter((text): text is string => typeof text === 'string');
  return [String(at(card, 'header', 'title')), String(at(card, 'header', 'subtitle')), ...widgets];
}

export interface GoogleChatSpace extends WebhookStandIn {
  /** The webhook URL to give the provider (its key and token are the secret). */
  webhookUrl: string;
  token: string;
  /** The thread each accepted message went to, by its threadKey, as Chat groups them. */
  threads: Map<string, number>;
}

export async function startGoogleChatSpace(): Promise<GoogleChatSpace> {
  const space = `AAAA${randomBytes(6).toString('hex')}`;
  const key = `AIza${randomBytes(16).toString('base64url')}`;
  const token = randomBytes(24).toString('base64url');
  const threads = new Map<string, number>();
  let count = 0;
  const standIn = await startWebhookStandIn({
    check(request, body) {
      const url = new URL(request.url, 'http://stand-in');
      if (request.method !== 'POST' || url.pathname !== `/v1/spaces/${space}/messages`)
        return 'no such space';
      if (url.searchParams.get('key') !== key || url.searchParams.get('token') !== token)
        return 'the key or token is not valid';
      const option = url.searchParams.get('messageReplyOption');
      if (option !== null && !REPLY_OPTIONS.has(option)) return 'messageReplyOption is not valid';
      return chatMessageProblem(body);
    },
    accept(body) {
      count += 1;
      const threadKey = at(body, 'thread', 'threadKey');
      if (typeof threadKey === 'string') threads.set(threadKey, (threads.get(threadKey) ?? 0) + 1);
      const name = `spaces/${space}/messages/m${count}.m${count}`;
      return { status: 200, body: JSON.stringify({ name, space: { name: `spaces/${space}` } }) };
    },
  });
  const webhookUrl = `http://127.0.0.1:${standIn.port}/v1/spaces/${space}/messages?key=${key}&token=${token}`;
  return { ...standIn, webhookUrl, token, threads };
}
