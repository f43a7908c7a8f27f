import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { listeningText } from '../../../src/domain/listening-text.js';
import type { ProviderInput, ProviderView } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { when } from '../parts/format.js';
import { ProviderForm } from '../parts/provider-form.js';
import { useLoad } from '../parts/use-load.js';

/** Where notifications go beyond this machine: providers, their health, tests and settings. */
export function Providers() {
  const api = useApi();
  const feedback = useFeedback();
  const kinds = useLoad(() => api.providerKinds());
  const providers = useLoad(() => api.providers());
  const [editing, setEditing] = useState<string | undefined>(undefined);
  /** A new key empties the new-provider form after a create. */
  const [created, setCreated] = useState(0);
  /** The Test button's one sentence, by provider. */
  const [tests, setTests] = useState<Record<string, string>>({});

  const create = (input: ProviderInput, enableNow: boolean) =>
    feedback.run(async () => {
      const provider = await api.createProvider(input);
      if (enableNow) await api.setProviderEnabled(provider.id, true);
      setCreated((count) => count + 1);
      providers.reload();
      return `Provider ${provider.name} created${enableNow ? ' and enabled' : ''}.`;
    });

  const update = (provider: ProviderView) => (input: ProviderInput) =>
    feedback.run(async () => {
      await api.updateProvider(provider.id, input);
      setEditing(undefined);
      providers.reload();
      return `Provider ${input.name ?? provider.name} saved.`;
    });

  const test = (provider: ProviderView) =>
    feedback.run(async () => {
      setTests((all) => ({ ...all, [provider.id]: 'Sending the test notification…' }));
      const outcome = await api.testProvider(provider.id);
      setTests((all) => ({ ...all, [provider.id]: outcome.summary }));
      providers.reload();
    });

  return (
    <section aria-labelledby="providers-heading">
      <h1 id="providers-heading">Providers</h1>
      {feedback.view}
      <LoadError error={providers.error ?? kinds.error} />
      {providers.data?.length === 0 && (
        <p class="empty">No provider yet: notifications stay on this machine.</p>
      )}
      <ul class="plain cards">
        {providers.data?.map((provider) => (
          <li key={provider.id} class="card" data-id={provider.id}>
            <h2>
              {provider.name} <span class="tag">{provider.kind}</span>
            </h2>
            <dl class="facts">
              <dt>State</dt>
              <dd>{provider.enabled ? 'enabled' : 'disabled'}</dd>
              <dt>Health</dt>
              <dd class={`health-${provider.health}`}>{provider.health}</dd>
              {provider.listening && (
                <>
                  <dt>Answers</dt>
                  <dd class={`listening-${provider.listening.state}`}>
                    {listeningText(provider.listening)}, since {when(provider.listening.since)}
                  </dd>
                </>
              )}
              <dt>Last result</dt>
              <dd>
                {provider.lastResult
                  ? `${provider.lastResult.outcome}${provider.lastResult.reason ? ` (${provider.lastResult.reason})` : ''}, ${when(provider.lastResult.at)}`
                  : 'none yet'}
              </dd>
              {Object.entries(provider.secrets).map(([name, set]) => (
                <Fragment key={name}>
                  <dt>{name}</dt>
                  <dd>{set ? 'set' : 'not set'}</dd>
                </Fragment>
              ))}
            </dl>
            {tests[provider.id] && (
              <p class="test-result" role="status">
                {tests[provider.id]}
              </p>
            )}
            <div class="actions">
              <button type="button" aria-label={`Test ${provider.name}`} onClick={() => test(provider)}>
                Test
              </button>
              <button
                type="button"
                aria-label={`${provider.enabled ? 'Disable' : 'Enable'} ${provider.name}`}
                onClick={() =>
                  feedback.run(async () => {
                    await api.setProviderEnabled(provider.id, !provider.enabled);
                    providers.reload();
                    return `${provider.name} ${provider.enabled ? 'disabled' : 'enabled'}.`;
                  })
                }
              >
                {provider.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                aria-label={`Change ${provider.name}`}
                aria-expanded={editing === provider.id}
                onClick={() => setEditing(editing === provider.id ? undefined : provider.id)}
              >
                Change
              </button>
              <button
                type="button"
                aria-label={`Delete ${provider.name}`}
                onClick={() =>
                  confirm(`Delete ${provider.name} and its routes?`) &&
                  feedback.run(async () => {
                    await api.deleteProvider(provider.id);
                    providers.reload();
                    return `Deleted ${provider.name}.`;
                  })
                }
              >
                Delete
              </button>
            </div>
            {editing === provider.id && kinds.data && (
              <ProviderForm
                kinds={kinds.data}
                provider={provider}
                save={update(provider)}
                cancel={() => setEditing(undefined)}
              />
            )}
          </li>
        ))}
      </ul>
      <h2>New provider</h2>
      {kinds.data && <ProviderForm key={created} kinds={kinds.data} save={create} />}
    </section>
  );
}
