import { DbusConnection } from '../../src/presentation/dbus.js';

/**
 * Another program on the same session bus that sends signals in someone else's name: to everyone who
 * listens for them, and to every connection directly (which no match rule stops).
 */
export interface SignalForger {
  /** Its own unique name (":1.x"). */
  name: string;
  nameOwner(name: string): Promise<string | undefined>;
  /** Resolves once the bus has passed every copy on: a signal sent after this arrives after them. */
  forge(path: string, iface: string, member: string, signature: string, body: unknown[]): Promise<void>;
  stop(): void;
}

export async function startForger(address: string): Promise<SignalForger> {
  const connection = await DbusConnection.open(address);
  return {
    name: connection.uniqueName,
    nameOwner: (name) => connection.nameOwner(name),
    forge: async (path, iface, member, signature, body) => {
      connection.emitSignal(path, iface, member, signature, body);
      const [names] = await connection.callBus('ListNames');
      for (const name of names as string[]) {
        if (name.startsWith(':') && name !== connection.uniqueName)
          connection.emitSignal(path, iface, member, signature, body, name);
      }
      // The bus handles one connection's messages in order: once it answers, it has routed the signals.
      await connection.callBus('GetId');
    },
    stop: () => connection.close(),
  };
}
