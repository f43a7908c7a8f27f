import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderService } from '../../../src/broker/provider-service.js';
import type { ProviderKind, SettingValues } from '../../../src/delivery/provider.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/domain/delivery/retry-policy.js';
import { loadMasterKey } from '../../../src/secrets/master-key.js';
import { SecretVault } from '../../../src/secrets/secret-vault.js';
import { openDatabase } from '../../../src/store/database.js';
import { ProviderStore } from '../../../src/store/provider-store.js';

/**
 * The ProviderService behind POST /v1/providers/{id}/test and `notifyctl providers test`, in process
 * over a database in a temporary folder, so the Test action is driven through the shipped code. The
 * secrets are sealed under a key file in that folder: the OS keyring of the machine running the tests
 * is never touched.
 */
export interface ProviderServiceRig {
  service: ProviderService;
  /** The same providers with the OS keyring locked: their secrets cannot be opened. */
  locked: ProviderService;
  /** Creates a provider through the service and answers its id. */
  add(kind: ProviderKind, settings: SettingValues): Promise<string>;
  close(): void;
}

export function startProviderService(
  kinds: readonly ProviderKind[],
  attemptTimeoutMs = DEFAULT_RETRY_POLICY.attemptTimeoutMs,
): ProviderServiceRig {
  const dir = mkdtempSync(join(tmpdir(), 'notify-provider-service-'));
  const db = openDatabase(join(dir, 'notify.db'));
  const providers = new ProviderStore(db);
  const withVault = (vault: SecretVault) =>
    new ProviderService({
      providers,
      kinds,
      vault,
      clock: () => Date.now(),
      newId: randomUUID,
      policy: { ...DEFAULT_RETRY_POLICY, attemptTimeoutMs },
      changed: () => undefined,
    });
  const keyFile = new SecretVault(() =>
    loadMasterKey({ dataDir: dir, recorded: () => 'file', choose: (store) => store, warn: () => undefined }),
  );
  const service = withVault(keyFile);
  return {
    service,
    locked: withVault(new SecretVault(async () => ({ store: 'keyring' }))),
    add: async (kind, settings) => (await service.create({ kind: kind.id, settings })).id,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
