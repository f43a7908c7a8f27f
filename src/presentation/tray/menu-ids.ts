import type { MenuEntry } from './tray-model.js';

/** A menu entry with the id the panel knows it by. */
export interface NumberedEntry extends MenuEntry {
  id: number;
  children?: NumberedEntry[];
}

/**
 * Gives menu entries D-Bus ids that follow their meaning: an entry keeps its id through rebuilds,
 * and an id is never given to another entry. A panel that clicks an id from a layout it fetched
 * before the menu changed then reaches the same entry or none, never a neighbour that moved into
 * its place (Dismiss on the wrong notification, say).
 */
export class MenuIds {
  #ids = new Map<string, number>();
  #next = 1;

  number(entries: MenuEntry[]): NumberedEntry[] {
    const ids = new Map<string, number>();
    const visit = (entry: MenuEntry): NumberedEntry => {
      const id = this.#ids.get(entry.key) ?? this.#next++;
      ids.set(entry.key, id);
      return { ...entry, id, children: entry.children?.map(visit) };
    };
    const numbered = entries.map(visit);
    // Only the current menu's keys are kept, so the map stays as small as the menu.
    this.#ids = ids;
    return numbered;
  }
}

/** Finds the entry with this id anywhere in the menu. */
export function findEntry(menu: NumberedEntry[], id: number): NumberedEntry | undefined {
  for (const entry of menu) {
    if (entry.id === id) return entry;
    const inner = entry.children && findEntry(entry.children, id);
    if (inner) return inner;
  }
  return undefined;
}
