import { DbusConnection, DbusObject, Variant } from '../../src/presentation/dbus.js';

const WATCHER = 'org.kde.StatusNotifierWatcher';

class WatcherObject extends DbusObject {
  readonly registered: string[] = [];
  constructor() {
    super(WATCHER);
  }
  RegisterStatusNotifierItem(service: string): void {
    this.registered.push(service);
  }
  RegisterStatusNotifierHost(_service: string): void {}
  get RegisteredStatusNotifierItems(): string[] {
    return this.registered;
  }
  get IsStatusNotifierHostRegistered(): boolean {
    return true;
  }
  get ProtocolVersion(): number {
    return 0;
  }
}

WatcherObject.configureMembers({
  properties: {
    RegisteredStatusNotifierItems: { signature: 'as', access: 'read' },
    IsStatusNotifierHostRegistered: { signature: 'b', access: 'read' },
    ProtocolVersion: { signature: 'i', access: 'read' },
  },
  methods: {
    RegisterStatusNotifierItem: { inSignature: 's', outSignature: '' },
    RegisterStatusNotifierHost: { inSignature: 's', outSignature: '' },
  },
});

export type MenuNode = [number, Record<string, Variant>, Variant<MenuNode>[]];

/** A panel's StatusNotifierWatcher stand-in, which also reads the items registered with it like a panel. */
export interface TestWatcher {
  registered: string[];
  property(item: string, name: string): Promise<unknown>;
  layout(item: string): Promise<MenuNode>;
  click(item: string, id: number): Promise<void>;
  stop(): void;
}

export async function startWatcher(address: string): Promise<TestWatcher> {
  const connection = await DbusConnection.open(address);
  const object = new WatcherObject();
  connection.export('/StatusNotifierWatcher', object);
  if (!(await connection.requestName(WATCHER))) throw new Error('could not own the watcher name');
  const get = async (item: string, path: string, iface: string, name: string) => {
    const [value] = await connection.call(item, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
      iface,
      name,
    ]);
    return (value as Variant).value;
  };
  return {
    registered: object.registered,
    property: (item, name) => get(item, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', name),
    layout: async (item) => {
      const menu = (await get(item, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Menu')) as string;
      const [, layout] = await connection.call(item, menu, 'com.canonical.dbusmenu', 'GetLayout', 'iias', [
        0,
        -1,
        [],
      ]);
      return layout as MenuNode;
    },
    click: async (item, id) => {
      await connection.call(item, '/MenuBar', 'com.canonical.dbusmenu', 'Event', 'isvu', [
        id,
        'clicked',
        new Variant('s', ''),
        0,
      ]);
    },
    stop: () => connection.close(),
  };
}
