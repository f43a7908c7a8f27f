/**
 * Answers that come back through a chat or message channel (Telegram, Slack, Discord, Matrix, MQTT):
 * what a button or reply carries, who may answer, and what the person is told. Pure: the channels
 * read and write these, the broker applies them (docs/providers.md "Channels that answer").
 */

/** The choice a channel's button names: the action's position (compact payloads) or its id. */
export type ChannelChoice = { index: number } | { id: string };

/** One person's answer read from a channel: which notification, the revision it showed, the choice. */
export interface ChannelAnswer {
  notificationId: string;
  revision: number;
  choice: ChannelChoice;
  /** The channel's own id of the person who answered, as `allowedUserIds` lists them. */
  userId: string;
}

/**
 * What became of an answer, so the channel can tell the person at once (a callback acknowledgement, a
 * reply): `applied` is the only outcome that changed anything.
 */
export type ChannelAnswerOutcome =
  | { kind: 'applied'; action: string }
  | { kind: 'not_allowed'; message: string }
  | { kind: 'stale'; message: string }
  | { kind: 'closed'; message: string }
  | { kind: 'unknown'; message: string };

/** How a listening channel is doing, for `health` in the providers API and `notifyctl providers list`. */
export interface ListenerHealth {
  state: 'listening' | 'connecting' | 'retrying' | 'refused';
  since: number;
  /** Why it is retrying or refused: a reason code, never exception text. */
  reason?: string;
}

export const NOT_ALLOWED_MESSAGE = 'You are not allowed to answer this.';

/** The payload prefix and version, so a payload of another program or a later version is never read. */
const PAYLOAD_PREFIX = 'n1';
const PAYLOAD_SEPARATOR = ':';
const NOTIFICATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A button's payload: `n1:<notification id>:<revision>:<action index>`, at most 52 bytes (Telegram's
 * callback_data allows 64), the same for every channel that carries one.
 */
export function encodeAnswerPayload(notificationId: string, revision: number, actionIndex: number): string {
  return [PAYLOAD_PREFIX, notificationId, revision, actionIndex].join(PAYLOAD_SEPARATOR);
}

/** The payload's parts, or undefined for anything that is not a payload we wrote. */
export function decodeAnswerPayload(
  payload: string,
): { notificationId: string; revision: number; choice: { index: number } } | undefined {
  const parts = payload.split(PAYLOAD_SEPARATOR);
  if (parts.length !== 4 || parts[0] !== PAYLOAD_PREFIX) return undefined;
  const [, notificationId, revisionText, indexText] = parts as [string, string, string, string];
  if (!NOTIFICATION_ID.test(notificationId)) return undefined;
  if (!/^[1-9][0-9]{0,8}$/.test(revisionText) || !/^[0-9]$/.test(indexText)) return undefined;
  return { notificationId, revision: Number(revisionText), choice: { index: Number(indexText) } };
}

/**
 * The user ids of an `allowedUserIds` setting: comma- or space-separated, blanks dropped. Ids are
 * compared as written (Slack's U0123ABC, Matrix's @name:server, Telegram's numbers).
 */
export function readUserIdList(value: string | number | boolean | undefined): string[] {
  if (value === undefined || value === '') return [];
  return String(value)
    .split(/[\s,]+/)
    .filter((id) => id !== '');
}

/** Whether `userId` may answer: listed in `allowed`, or one of the channel's own implicit ids. */
export function isAllowedUser(
  allowed: readonly string[],
  userId: string,
  implicit: readonly string[] = [],
): boolean {
  return allowed.includes(userId) || implicit.includes(userId);
}

/** The words a channel puts on a message once the request is answered (`Answered “Allow” on Telegram`). */
export function answeredLine(actionLabel: string, surface: string): string {
  return `Answered “${actionLabel}” ${SURFACE_PLACES[surface] ?? `on ${surface}`}`;
}

const SURFACE_PLACES: Readonly<Record<string, string>> = {
  toast: 'at the desk',
  tray: 'at the desk',
  web: 'in the web page',
  cli: 'in the terminal',
  relay: 'on the phone',
  telegram: 'on Telegram',
  slack: 'on Slack',
  discord: 'on Discord',
  matrix: 'on Matrix',
  mqtt: 'through MQTT',
};
