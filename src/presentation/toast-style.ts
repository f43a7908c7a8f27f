import type { Action } from '../domain/answers.js';
import type { NotificationRecord } from '../domain/notification.js';
import { needsPerson } from '../domain/attention.js';
import { answersWithheld, showControls } from '../domain/display-controls.js';
import { canFocus } from '../domain/origin.js';
import { senderLine } from '../domain/sender-line.js';
import { activeDefinition, type TypeCatalog } from '../domain/type-definition.js';
import { projectName } from '../workspace/project-name.js';

/** How a type looks on the desktop: icon (freedesktop icon name) and lifetime (0 = until acted on). */
export interface TypeStyle {
  icon: string;
  lifetimeSeconds: number;
}

/** The built-in types' styling (issue 8 "Toasts"); a type that needs a person stays until acted on. */
export const BUILT_IN_STYLES: Readonly<Record<string, TypeStyle>> = {
  info: { icon: 'dialog-information', lifetimeSeconds: 7 },
  success: { icon: 'emblem-default', lifetimeSeconds: 5 },
  completed: { icon: 'emblem-default', lifetimeSeconds: 5 },
  warning: { icon: 'dialog-warning', lifetimeSeconds: 12 },
  error: { icon: 'dialog-error', lifetimeSeconds: 15 },
  input_required: { icon: 'dialog-question', lifetimeSeconds: 0 },
  permission_required: { icon: 'dialog-password', lifetimeSeconds: 0 },
  blocked: { icon: 'process-stop', lifetimeSeconds: 0 },
};

const GENERIC = BUILT_IN_STYLES['info']!;

/** What every platform adapter shows; the adapters only translate it to their own calls. */
export interface ToastContent {
  notificationId: string;
  /** The notification's revision the toast shows: its buttons answer that one (docs/answers.md). */
  revision: number;
  summary: string;
  /**
   * Plain text: the message, then `agent · project` on its own line; without a project, the one its
   * working folder belongs to (`cli · shop` for a `notify send` in ~/code/shop/web).
   */
  body: string;
  urgency: 0 | 1 | 2;
  icon: string;
  /** The type the toast is styled as (the notification's, or `info` for an unconfigured custom one). */
  styleType: string;
  /** Milliseconds; 0 = stays until acted on. */
  expireTimeoutMs: number;
  critical: boolean;
  /** Offer buttons (a stored notification; not the test toast). */
  actionable: boolean;
  /** Its origin names a place Notify can focus: a click goes there (docs/focus.md). */
  focusable: boolean;
  /** The notification's own actions: the buttons instead of Resolve / Dismiss, pressed as an answer. */
  choices: Action[];
  /**
   * A request whose text holds direction or invisible characters: no answer buttons (`choices` is
   * empty), and the toast says to answer in the terminal (conventions.md).
   */
  terminalOnly?: boolean;
}

/**
 * The most of a message a toast with actions shows; a longer one is cut and says so, since a person
 * approves what they read (conventions.md: shown exactly as it will run, or marked as cut).
 */
export const MAX_CHOICE_MESSAGE = 1000;

/**
 * The styling that applies to a type: built-in styling, overridden by an enabled definition's
 * `icon` / `lifetimeSeconds`; a custom type without an enabled definition gets the generic info styling.
 * Without a lifetime of its own, a toast whose type needs a person stays until acted on (issue 20), and
 * one whose type does not expires.
 */
export function styleFor(type: string, catalog: TypeCatalog): { styleType: string; style: TypeStyle } {
  const definition = activeDefinition(catalog, type);
  const builtIn = Object.hasOwn(BUILT_IN_STYLES, type) ? BUILT_IN_STYLES[type] : undefined;
  if (!builtIn && !definition) return { styleType: 'info', style: GENERIC };
  const base = builtIn ?? GENERIC;
  const icon = definition?.['icon'];
  const lifetime = definition?.['lifetimeSeconds'];
  const defaultLifetime = needsPerson(type, catalog) ? 0 : base.lifetimeSeconds || GENERIC.lifetimeSeconds;
  return {
    styleType: builtIn || definition ? type : 'info',
    style: {
      icon: typeof icon === 'string' && icon.trim() !== '' ? icon.trim() : base.icon,
      lifetimeSeconds:
        typeof lifetime === 'number' && Number.isFinite(lifetime) && lifetime >= 0
          ? lifetime
          : defaultLifetime,
    },
  };
}

/** Direction and invisible characters show as `⟨U+202E⟩` in the summary and body. */
export function toastContent(record: NotificationRecord, catalog: TypeCatalog): ToastContent {
  const { styleType, style } = styleFor(record.type, catalog);
  const terminalOnly = record.actions !== undefined && answersWithheld(record);
  const message = record.actions ? cutForChoices(record.message) : record.message;
  return {
    notificationId: record.id,
    revision: record.revision,
    summary: showControls(record.title),
    body: showControls(
      `${message}\n${senderLine({ ...record, project: record.project ?? projectName(record.cwd) })}`,
    ),
    urgency: record.priority === 'critical' ? 2 : record.priority === 'low' ? 0 : 1,
    icon: style.icon,
    styleType,
    expireTimeoutMs: Math.round(style.lifetimeSeconds * 1000),
    critical: record.priority === 'critical',
    actionable: true,
    focusable: canFocus(record.origin),
    choices: terminalOnly ? [] : (record.actions ?? []),
    ...(terminalOnly && { terminalOnly }),
  };
}

function cutForChoices(message: string): string {
  const characters = [...message];
  if (characters.length <= MAX_CHOICE_MESSAGE) return message;
  const left = characters.length - MAX_CHOICE_MESSAGE;
  return `${characters.slice(0, MAX_CHOICE_MESSAGE).join('')}… [cut: ${left} more characters not shown]`;
}

/**
 * Whether a server that does not declare `body-markup` could still eat part of the text: dunst with a
 * rule that strips markup removes everything from a `<` to the next `>` (`sort < in > out` becomes
 * `sort  out`), and escaping would show `&lt;` on a server that does not.
 */
export function mayLoseText(body: string): boolean {
  return /<[^>]*>/.test(body) || /&[#a-zA-Z0-9]+;/.test(body);
}

/** Escapes text for servers that read the body as markup (the `body-markup` capability). */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `notifyctl test-toast`'s toast: the info styling, no buttons, nothing stored behind it. */
export function sampleToast(): ToastContent {
  return {
    notificationId: 'test-toast',
    revision: 1,
    summary: 'Notify test toast',
    body: 'If you can read this, Notify toasts work.\nnotifyctl · test-toast',
    urgency: 1,
    icon: BUILT_IN_STYLES['info']!.icon,
    styleType: 'info',
    expireTimeoutMs: BUILT_IN_STYLES['info']!.lifetimeSeconds * 1000,
    critical: false,
    actionable: false,
    focusable: false,
    choices: [],
  };
}
