import { DbusObject } from '../dbus.js';
import { MENU_PATH } from './dbusmenu.js';
import type { TrayState } from './tray-model.js';

export const ITEM_PATH = '/StatusNotifierItem';
export const ITEM_INTERFACE = 'org.kde.StatusNotifierItem';

/**
 * The tooltip's texts are rich text to the panel (the protocol allows a subset of HTML, and KDE renders
 * it): names from producers must show as sent, not as markup.
 */
function escapeRichText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The tray icon's org.kde.StatusNotifierItem: its properties read the current TrayState. */
export class StatusNotifierItem extends DbusObject {
  state: TrayState | undefined;

  constructor() {
    super(ITEM_INTERFACE);
  }

  get Category(): string {
    return 'Communications';
  }
  get Id(): string {
    return 'notify';
  }
  get Title(): string {
    return this.state?.title ?? 'Notify';
  }
  get Status(): string {
    return this.state?.status ?? 'Active';
  }
  get IconName(): string {
    return this.state?.icon ?? 'emblem-default';
  }
  get AttentionIconName(): string {
    return 'dialog-warning';
  }
  get ToolTip(): [string, [number, number, Buffer][], string, string] {
    return [
      'dialog-information',
      [],
      escapeRichText(this.state?.tooltipTitle ?? 'Notify'),
      escapeRichText(this.state?.tooltipText ?? ''),
    ];
  }
  get Menu(): string {
    return MENU_PATH;
  }
  get ItemIsMenu(): boolean {
    return true;
  }

  // Panels call these on clicks; the menu holds everything, so they do nothing.
  Activate(_x: number, _y: number): void {}
  SecondaryActivate(_x: number, _y: number): void {}
  ContextMenu(_x: number, _y: number): void {}
  Scroll(_delta: number, _orientation: string): void {}
}

StatusNotifierItem.configureMembers({
  properties: {
    Category: { signature: 's', access: 'read' },
    Id: { signature: 's', access: 'read' },
    Title: { signature: 's', access: 'read' },
    Status: { signature: 's', access: 'read' },
    IconName: { signature: 's', access: 'read' },
    AttentionIconName: { signature: 's', access: 'read' },
    ToolTip: { signature: '(sa(iiay)ss)', access: 'read' },
    Menu: { signature: 'o', access: 'read' },
    ItemIsMenu: { signature: 'b', access: 'read' },
  },
  methods: {
    Activate: { inSignature: 'ii', outSignature: '' },
    SecondaryActivate: { inSignature: 'ii', outSignature: '' },
    ContextMenu: { inSignature: 'ii', outSignature: '' },
    Scroll: { inSignature: 'is', outSignature: '' },
  },
});
