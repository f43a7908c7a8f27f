import { SecretBox, SecretsUnreadableError } from './secret-box.js';
import type { MasterKey } from './master-key.js';

/** The secret settings of providers, sealed and opened under the master key. */
export class SecretVault {
  readonly #box: SecretBox | undefined;

  constructor(readonly masterKey: MasterKey) {
    this.#box = masterKey.key && new SecretBox(masterKey.key);
  }

  get available(): boolean {
    return this.#box !== undefined;
  }

  seal(providerId: string, name: string, value: string): Buffer {
    return this.box().seal(value, contextOf(providerId, name));
  }

  /** Every sealed secret of one provider, opened; SecretsUnreadableError when any does not open. */
  open(providerId: string, sealed: ReadonlyMap<string, Buffer>): Record<string, string> {
    const box = this.box();
    const values: Record<string, string> = {};
    for (const [name, value] of sealed) values[name] = box.open(value, contextOf(providerId, name));
    return values;
  }

  private box(): SecretBox {
    if (!this.#box) {
      throw new SecretsUnreadableError(
        `the ${this.masterKey.store} holding the secrets master key did not answer`,
      );
    }
    return this.#box;
  }
}

function contextOf(providerId: string, name: string): string {
  return `notify-provider-secret/${providerId}/${name}`;
}
