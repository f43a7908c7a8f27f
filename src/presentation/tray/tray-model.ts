import type { NotificationRecord } from '../../domain/notification.js';

/** One entry of the tray's menu (com.canonical.dbusmenu), with what clicking it does. */
export interface MenuEntry {
  id: number;
  label: string;
  /** 'separator' draws a line; 'checkmark' shows `checked`. */
  kind?: 'separator' | 'checkmark';
  checked?: boolean;
  enabled?: boolean;
  children?: MenuEntry[];
  command?: TrayCommand;
}

export type TrayCommand =
  | { op: 'resolve' | 'dismiss'; notificationId: string }
  | { op: 'pause' | 'doNotDisturb'; on: boolean }
  | { op: 'quit' };

export interface TrayState {
  /** StatusNotifierItem Status: NeedsAttention while anything is active. */
  status: 'Active' | 'NeedsAttention';
  title: string;
  tooltipTitle: string;
  tooltipText: string;
  menu: MenuEntry[];
}

export interface TraySettings {
  pauseNotifications: boolean;
  doNotDisturb: boolean;
}

const MAX_LISTED = 20;

/** What the tray shows for these active notifications (newest first) and settings. Pure. */
export function trayState(active: NotificationRecord[], settings: TraySettings): TrayState {
  const count = active.length;
  const waiting = new Map<string, number>();
  for (const record of active) waiting.set(record.agent, (waiting.get(record.agent) ?? 0) + 1);
  const agents = [...waiting].map(([agent, n]) => (n > 1 ? `${agent} (${n})` : agent));

  let nextId = 1;
  const id = () => nextId++;
  const items: MenuEntry[] = active.slice(0, MAX_LISTED).map((record) => ({
    id: id(),
    label: `${record.agent}: ${record.title}`,
    children: [
      { id: id(), label: 'Resolve', command: { op: 'resolve', notificationId: record.id } },
      { id: id(), label: 'Dismiss', command: { op: 'dismiss', notificationId: record.id } },
    ],
  }));
  if (count === 0) items.push({ id: id(), label: 'Nothing needs your attention', enabled: false });
  if (count > MAX_LISTED) items.push({ id: id(), label: `and ${count - MAX_LISTED} more`, enabled: false });

  return {
    status: count > 0 ? 'NeedsAttention' : 'Active',
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
      { id: id(), label: '', kind: 'separator' },
      {
        id: id(),
        label: 'Pause notifications',
        kind: 'checkmark',
        checked: settings.pauseNotifications,
        command: { op: 'pause', on: !settings.pauseNotifications },
      },
      {
        id: id(),
        label: 'Do not disturb',
        kind: 'checkmark',
        checked: settings.doNotDisturb,
        command: { op: 'doNotDisturb', on: !settings.doNotDisturb },
      },
      { id: id(), label: 'Quit Notify', command: { op: 'quit' } },
    ],
  };
}

/** Finds the entry with this id anywhere in the menu. */
export function findEntry(menu: MenuEntry[], id: number): MenuEntry | undefined {
  for (const entry of menu) {
    if (entry.id === id) return entry;
    const inner = entry.children && findEntry(entry.children, id);
    if (inner) return inner;
  }
  return undefined;
}
