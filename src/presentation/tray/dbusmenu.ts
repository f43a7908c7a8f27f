import { DbusObject, Variant } from '../dbus.js';
import { findEntry, MenuIds, type NumberedEntry } from './menu-ids.js';
import type { MenuEntry } from './tray-model.js';

export const MENU_PATH = '/MenuBar';
const MENU_INTERFACE = 'com.canonical.dbusmenu';

type Layout = [number, Record<string, Variant>, Variant[]];

function properties(entry: MenuEntry): Record<string, Variant> {
  const props: Record<string, Variant> = {};
  if (entry.kind === 'separator') props['type'] = new Variant('s', 'separator');
  else props['label'] = new Variant('s', entry.label.replace(/_/g, '__'));
  if (entry.enabled === false) props['enabled'] = new Variant('b', false);
  if (entry.kind === 'checkmark') {
    props['toggle-type'] = new Variant('s', 'checkmark');
    props['toggle-state'] = new Variant('i', entry.checked ? 1 : 0);
  }
  if (entry.children) props['children-display'] = new Variant('s', 'submenu');
  return props;
}

function layout(entry: NumberedEntry): Layout {
  return [
    entry.id,
    properties(entry),
    (entry.children ?? []).map((child) => new Variant('(ia{sv}av)', layout(child))),
  ];
}

/** How many answer entries that left the menu still take a click. */
const MAX_RETIRED = 200;

/** Every entry of the menu that answers a request. */
function answerEntries(entries: NumberedEntry[]): NumberedEntry[] {
  return entries.flatMap((entry) => [
    ...(entry.command?.op === 'answer' ? [entry] : []),
    ...answerEntries(entry.children ?? []),
  ]);
}

/**
 * The tray's menu over com.canonical.dbusmenu: the layout of the current entries, and a click
 * ('clicked' event) handed to `onClick` with its entry.
 */
export class DbusMenu extends DbusObject {
  #entries: NumberedEntry[] = [];
  /**
   * Answer entries that left the menu (their request changed or closed), by id: a panel that shows a
   * menu drawn before still sends their clicks, and those go to the broker with the revision the entry
   * showed, which refuses them and logs why, rather than vanishing unexplained.
   */
  readonly #retired = new Map<number, NumberedEntry>();
  readonly #ids = new MenuIds();
  revision = 1;

  constructor(private readonly onClick: (entry: MenuEntry) => void) {
    super(MENU_INTERFACE);
  }

  set entries(entries: MenuEntry[]) {
    const before = this.#entries;
    this.#entries = this.#ids.number(entries);
    for (const entry of answerEntries(before)) {
      if (findEntry(this.#entries, entry.id)) continue;
      this.#retired.set(entry.id, entry);
      if (this.#retired.size > MAX_RETIRED) this.#retired.delete(this.#retired.keys().next().value!);
    }
    this.revision++;
  }

  get Version(): number {
    return 3;
  }
  get TextDirection(): string {
    return 'ltr';
  }
  get Status(): string {
    return 'normal';
  }
  get IconThemePath(): string[] {
    return [];
  }

  GetLayout(parentId: number, _depth: number, _names: string[]): [number, Layout] {
    const root: NumberedEntry = { id: 0, key: 'root', label: '', children: this.#entries };
    const parent = parentId === 0 ? root : (findEntry(this.#entries, parentId) ?? root);
    return [this.revision, layout(parent)];
  }

  GetGroupProperties(ids: number[], _names: string[]): [number, Record<string, Variant>][] {
    return ids.flatMap((id) => {
      const entry = findEntry(this.#entries, id);
      return entry ? [[id, properties(entry)] as [number, Record<string, Variant>]] : [];
    });
  }

  GetProperty(id: number, name: string): Variant {
    const entry = findEntry(this.#entries, id);
    return (entry && properties(entry)[name]) ?? new Variant('s', '');
  }

  Event(id: number, eventId: string, _data: Variant, _timestamp: number): void {
    const entry = findEntry(this.#entries, id) ?? this.#retired.get(id);
    if (eventId === 'clicked' && entry && entry.enabled !== false) this.onClick(entry);
  }

  EventGroup(events: [number, string, Variant, number][]): number[] {
    const missing: number[] = [];
    for (const [id, eventId, data, timestamp] of events) {
      if (!findEntry(this.#entries, id) && !this.#retired.has(id)) missing.push(id);
      else this.Event(id, eventId, data, timestamp);
    }
    return missing;
  }

  AboutToShow(_id: number): boolean {
    return false;
  }

  AboutToShowGroup(_ids: number[]): [number[], number[]] {
    return [[], []];
  }
}

DbusMenu.configureMembers({
  properties: {
    Version: { signature: 'u', access: 'read' },
    TextDirection: { signature: 's', access: 'read' },
    Status: { signature: 's', access: 'read' },
    IconThemePath: { signature: 'as', access: 'read' },
  },
  methods: {
    GetLayout: { inSignature: 'iias', outSignature: 'u(ia{sv}av)' },
    GetGroupProperties: { inSignature: 'aias', outSignature: 'a(ia{sv})' },
    GetProperty: { inSignature: 'is', outSignature: 'v' },
    Event: { inSignature: 'isvu', outSignature: '' },
    EventGroup: { inSignature: 'a(isvu)', outSignature: 'ai' },
    AboutToShow: { inSignature: 'i', outSignature: 'b' },
    AboutToShowGroup: { inSignature: 'ai', outSignature: 'aiai' },
  },
});

export const DBUSMENU = { path: MENU_PATH, interface: MENU_INTERFACE };
