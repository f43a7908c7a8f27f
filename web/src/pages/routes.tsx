import { useState } from 'preact/hooks';
import type { RouteView } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { delayText } from '../parts/delay.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { RouteForm } from '../parts/route-form.js';
import { useLoad } from '../parts/use-load.js';

/** Which notifications go to which provider: each route's matching rules, its wait; change any. */
export function Routes() {
  const api = useApi();
  const feedback = useFeedback();
  const routes = useLoad(() => api.routes());
  const providers = useLoad(() => api.providers());
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const providerName = (id: string) => providers.data?.find((provider) => provider.id === id)?.name ?? id;

  const toggle = (route: RouteView) =>
    feedback.run(async () => {
      await api.setRouteEnabled(route.id, !route.enabled);
      routes.reload();
      return `${route.name} ${route.enabled ? 'disabled' : 'enabled'}.`;
    });

  return (
    <section aria-labelledby="routes-heading">
      <h1 id="routes-heading">Routes</h1>
      {feedback.view}
      <LoadError error={routes.error ?? providers.error} />
      {routes.data?.length === 0 && <p class="empty">No route yet: no notification leaves this machine.</p>}
      <ul class="plain cards">
        {routes.data?.map((route) => (
          <li key={route.id} class="card" data-id={route.id}>
            <h2>
              {route.name} <span class="tag">{route.enabled ? 'enabled' : 'disabled'}</span>
              {route.delaySeconds > 0 && <span class="tag">waits {delayText(route.delaySeconds)}</span>}
            </h2>
            <p>
              To <strong>{providerName(route.providerId)}</strong>: {rulesOf(route)}
            </p>
            {editing === route.id && providers.data ? (
              <RouteForm
                providers={providers.data}
                route={route}
                label={`Change ${route.name}`}
                submit="Save route"
                onCancel={() => setEditing(undefined)}
                onSubmit={(input) =>
                  void feedback.run(async () => {
                    const changed = await api.updateRoute(route.id, input);
                    setEditing(undefined);
                    routes.reload();
                    return `Route ${changed.name} saved.`;
                  })
                }
              />
            ) : (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Change ${route.name}`}
                  onClick={() => setEditing(route.id)}
                >
                  Change
                </button>
                <button
                  type="button"
                  aria-label={`${route.enabled ? 'Disable' : 'Enable'} ${route.name}`}
                  onClick={() => toggle(route)}
                >
                  {route.enabled ? 'Disable' : 'Enable'}
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${route.name}`}
                  onClick={() =>
                    feedback.run(async () => {
                      await api.deleteRoute(route.id);
                      routes.reload();
                      return `Deleted ${route.name}.`;
                    })
                  }
                >
                  Delete
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <h2>New route</h2>
      {providers.data?.length === 0 ? (
        <p class="empty">
          Add a provider first (<a href="#/providers">Providers</a>).
        </p>
      ) : (
        providers.data && (
          <RouteForm
            providers={providers.data}
            label="New route"
            submit="Create route"
            onSubmit={(input, enableNow, form) =>
              void feedback.run(async () => {
                const route = await api.createRoute(input);
                if (enableNow) await api.setRouteEnabled(route.id, true);
                form.reset();
                routes.reload();
                return enableNow
                  ? `Route ${route.name} created and enabled.`
                  : `Route ${route.name} created, disabled: Enable it when it is ready.`;
              })
            }
          />
        )
      )}
    </section>
  );
}

/** A route's matching rules and its wait, in words. */
export function rulesOf(route: RouteView): string {
  const rules = [`priority ${route.minimumPriority} or higher`];
  if (route.typeId) rules.push(`type ${route.typeId}`);
  if (route.project) rules.push(`project ${route.project}`);
  if (route.agent) rules.push(`agent ${route.agent}`);
  rules.push(route.includeMessage ? 'title and message' : 'title only');
  if (route.delaySeconds > 0)
    rules.push(`waits ${delayText(route.delaySeconds)} and sends only if nobody handled it meanwhile`);
  rules.push(route.sendDuringQuietHours ? 'sends during quiet hours' : 'waits out quiet hours');
  return rules.join(', ');
}
