import type { AnswerLink, OutboundNotification } from '../delivery/provider.js';
import { requestAnswerLink } from '../delivery/providers/relay/answer-link.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { ProviderStore } from '../store/provider-store.js';

/** How long a send waits for the relay to hold the revision its buttons answer, asking every 250 ms. */
const WAIT_FOR_RELAY_MS = 5_000;
const ASK_EVERY_MS = 250;

/**
 * The answer link a message with answer buttons carries (ntfy, docs/providers.md "ntfy and answers"):
 * minted by the first enabled paired relay for this revision of an active notification with actions.
 * Each provider's delivery is an outbox item of its own, so the relay may not hold the revision yet:
 * this waits a little for it (`waitMs`, 5 s), then sends without buttons. No relay, no link: the
 * relay's credential stays here, only the single-use link goes out.
 */
export async function answerLinkFor(
  deps: { providers: ProviderStore; vault: SecretVault },
  notification: OutboundNotification,
  signal: AbortSignal,
  waitMs = WAIT_FOR_RELAY_MS,
): Promise<AnswerLink | undefined> {
  if (
    notification.status !== 'active' ||
    !notification.actions?.length ||
    notification.revision === undefined
  )
    return undefined;
  const relay = deps.providers.list().find((provider) => provider.kind === 'relay' && provider.enabled);
  if (relay === undefined) return undefined;
  let settings;
  try {
    settings = {
      ...relay.settings,
      ...(await deps.vault.open(relay.id, deps.providers.sealedSecrets(relay.id))),
    };
  } catch {
    return undefined;
  }
  // The whole wait, a relay that never answers included, is cut at waitMs.
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(waitMs)]);
  for (;;) {
    const answer = await requestAnswerLink(settings, notification, bounded);
    if (answer === 'none') return undefined;
    if (answer !== 'later') return answer;
    if (bounded.aborted) return undefined;
    await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
  }
}
