import { SecretBox, SecretsUnreadableError } from './secret-box.js';
import type { MasterKey } from './master-key.js';

/**
 * The secret settings of providers, sealed and opened under the master key. The key is looked up the
 * first time a secret is stored or read, so a broker without secrets never touches a keyring or file.
 */
export class SecretVault {
  #box: Promise<{ box?: SecretBox; store: string }> | undefined;

  constructor(private readonly loadKey: () => Promise<MasterKey>) {}

  /** Seals every value; resolves to an empty map without touching the key when there is none. */
  async sealAll(providerId: string, values: ReadonlyMap<string, string>): Promise<Map<string, Buffer>> {
    const sealed = new Map<string, Buffer>();
    if (values.size === 0) return sealed;
    const box = await this.box();
    for (const [name, value] of values) sealed.set(name, box.seal(value, contextOf(providerId, name)));
    return sealed;
  }

  /** Every sealed secret of one provider, opened; SecretsUnreadableError when any does not open. */
  async open(providerId: string, sealed: ReadonlyMap<string, Buffer>): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    if (sealed.size === 0) return values;
    const box = await this.box();
    for (const [name, value] of sealed) values[name] = box.open(value, contextOf(providerId, name));
    return values;
  }

  private async box(): Promise<SecretBox> {
    this.#box ??= this.loadKey().then((master) => ({
      store: master.store === 'keyring' ? 'OS keyring' : 'key file',
      ...(master.key && { box: new SecretBox(master.key) }),
    }));
    let found;
    try {
      found = await this.#box;
    } catch {
      this.#box = undefined;
      throw new SecretsUnreadableError('the secrets master key could not be read');
    }
    if (!found.box) {
      // A locked keyring may open later: ask again next time.
      this.#box = undefined;
      throw new SecretsUnreadableError(`the ${found.store} holding the secrets master key did not answer`);
    }
    return found.box;
  }
}

function contextOf(providerId: string, name: string): string {
  return `notify-provider-secret/${providerId}/${name}`;
}
