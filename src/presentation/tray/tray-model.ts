import { agentLabel } from '../../domain/sender-line.js';
import { needsPerson } from '../../domain/attention.js';
import { answersWithheld, showControls, TERMINAL_ONLY } from '../../domain/display-controls.js';
import type { NotificationRecord } from '../../domain/notification.js';
import { canFocus } from '../../domain/origin.js';
import type { TypeCatalog } from '../../domain/type-definition.js';

/** One entry of the tray's menu (com.canonical.dbusmenu), with what clicking it does. */
export interface MenuEntry {
  /** What the entry stands for, the same in every rebuild of the menu (its D-Bus id follows it). */
  key: string;
  label: string;
  /** 'separator' draws a line; 'checkmark' shows `checked`. */
  kind?: 'separator' | 'checkmark';
  checked?: boolean;
  enabled?: boolean;
  children?: MenuEntry[];
  command?: TrayCommand;
}

export type TrayCommand =
  | { op: 'resolve' | 'dismiss' | 'focus'; notificationId: string }
  | { op: 'answer'; notificationId: string; action: string; revision: number }
  | { op: 'pause' | 'doNotDisturb'; on: boolean }
  | { op: 'open' }
  | { op: 'quit' };

export interface TrayState {
  /** StatusNotifierItem Status: NeedsAttention while anything is active. */
  status: 'Active' | 'NeedsAttention';
  /**
   * The icon for that status. Also the IconName itself, not only AttentionIconName: many hosts
   * (gtk-sni-tray, some waybar builds) ignore the attention icon and would draw a green check while
   * notifications wait.
   */
  icon: 'dialog-warning' | 'emblem-default';
  title: string;
  tooltipTitle: string;
  tooltipText: string;
  menu: MenuEntry[];
}

export interface TraySettings {
  pauseNotifications: boolean;
  doNotDisturb: boolean;
  types: TypeCatalog;
  /** A program can open the web page (issue 21): the menu offers "Open Notify". */
  canOpenPage?: boolean;
}

const MAX_LISTED = 20;
/** The most of a request's message its submenu shows; longer ones are cut and say so. */
export const MAX_MENU_MESSAGE = 200;

function statusEntries(id: string): MenuEntry[] {
  return [
    { key: `resolve:${id}`, label: 'Resolve', command: { op: 'resolve', notificationId: id } },
    { key: `dismiss:${id}`, label: 'Dismiss', command: { op: 'dismiss', notificationId: id } },
  ];
}

/** First in a notification's submenu when its origin is known: takes the person to the agent. */
function focusEntry(record: NotificationRecord): MenuEntry[] {
  if (!canFocus(record.origin)) return [];
  return [
    {
      key: `focus:${record.id}`,
      label: 'Go to the agent',
      command: { op: 'focus', notificationId: record.id },
    },
  ];
}

/**
 * A request waiting for an answer: what it asks (its message, as the person approves it), then its
 * actions, then Dismiss to set it aside unanswered. When its text holds direction or invisible
 * characters, a line saying to answer in the terminal stands where the actions would. An action's entry
 * answers the revision its menu shows, and a new revision gives it a new key (so a new D-Bus id): a
 * click on an entry of a menu the panel drew before the change names the old revision, never the new one.
 */
function answerEntries(record: NotificationRecord): MenuEntry[] {
  const { id, revision } = record;
  const choices: MenuEntry[] = answersWithheld(record)
    ? [{ key: `terminal-only:${id}:${revision}`, label: TERMINAL_ONLY, enabled: false }]
    : record.actions!.map((action) => ({
        key: `answer:${id}:${revision}:${action.id}`,
        label: action.label,
        command: { op: 'answer', notificationId: id, action: action.id, revision },
      }));
  return [
    { key: `message:${id}:${revision}`, label: menuMessage(record.message), enabled: false },
    ...choices,
    { key: `separator:${record.id}`, label: '', kind: 'separator' },
    ...statusEntries(record.id).slice(1),
  ];
}

/**
 * One line, as a menu label is: direction and invisible characters show as `⟨U+202E⟩`, runs of line
 * breaks and tabs as one space; a cut says so.
 */
function menuMessage(message: string): string {
  const line = showControls(message).replace(/\p{Cc}+/gu, ' ');
  const characters = [...line];
  if (characters.length <= MAX_MENU_MESSAGE) return line;
  return `${characters.slice(0, MAX_MENU_MESSAGE).join('')}… [cut: ${characters.length - MAX_MENU_MESSAGE} more characters]`;
}

/**
 * What the tray shows for these active notifications (newest first) and settings. Pure. Only those
 * whose type needs a person count as waiting (issue 20); the menu lists every active one.
 */
export function trayState(active: NotificationRecord[], settings: TraySettings): TrayState {
  const needing = active.filter((record) => needsPerson(record.type, settings.types));
  const count = needing.length;
  const waiting = new Map<string, number>();
  for (const record of needing) {
    const agent = showControls(agentLabel(record));
    waiting.set(agent, (waiting.get(agent) ?? 0) + 1);
  }
  const agents = [...waiting].map(([agent, n]) => (n > 1 ? `${agent} (${n})` : agent));

  const items: MenuEntry[] = active.slice(0, MAX_LISTED).map((record) => ({
    key: `notification:${record.id}`,
    label: showControls(`${agentLabel(record)}: ${record.title}`),
    children: [...focusEntry(record), ...(record.actions ? answerEntries(record) : statusEntries(record.id))],
  }));
  if (active.length === 0)
    items.push({ key: 'nothing', label: 'Nothing needs your attention', enabled: false });
  if (active.length > MAX_LISTED)
    items.push({ key: 'more', label: `and ${active.length - MAX_LISTED} more`, enabled: false });

  return {
    status: count > 0 ? 'NeedsAttention' : 'Active',
    icon: count > 0 ? 'dialog-warning' : 'emblem-default',
    title: count > 0 ? `Notify: ${count} waiting` : 'Notify',
    tooltipTitle:
      count === 0
        ? 'Nothing needs your attention'
        : count === 1
          ? '1 notification waits'
          : `${count} notifications wait`,
    tooltipText: agents.length > 0 ? `Waiting: ${agents.join(', ')}` : '',
    menu: [
      ...items,
      { key: 'separator', label: '', kind: 'separator' },
      ...(settings.canOpenPage
        ? [{ key: 'open', label: 'Open Notify', command: { op: 'open' } } as const]
        : []),
      {
        key: 'pause',
        label: 'Pause notifications',
        kind: 'checkmark',
        checked: settings.pauseNotifications,
        command: { op: 'pause', on: !settings.pauseNotifications },
      },
      {
        key: 'doNotDisturb',
        label: 'Do not disturb',
        kind: 'checkmark',
        checked: settings.doNotDisturb,
        command: { op: 'doNotDisturb', on: !settings.doNotDisturb },
      },
      { key: 'quit', label: 'Quit Notify', command: { op: 'quit' } },
    ],
  };
}
