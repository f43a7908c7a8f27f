import type { Priority, RouteInput, RouteView } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { useLoad } from '../parts/use-load.js';

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'critical'];

/** Which notifications go to which provider: each route's matching rules. */
export function Routes() {
  const api = useApi();
  const feedback = useFeedback();
  const routes = useLoad(() => api.routes());
  const providers = useLoad(() => api.providers());
  const providerName = (id: string) => providers.data?.find((provider) => provider.id === id)?.name ?? id;

  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const input: RouteInput = {
      providerId: text('providerId'),
      minimumPriority: text('minimumPriority') as Priority,
      typeId: text('typeId') || null,
      project: text('project') || null,
      agent: text('agent') || null,
      includeMessage: data.get('includeMessage') === 'on',
      ...(text('name') && { name: text('name') }),
    };
    const enableNow = data.get('enableNow') === 'on';
    void feedback.run(async () => {
      const route = await api.createRoute(input);
      if (enableNow) await api.setRouteEnabled(route.id, true);
      form.reset();
      routes.reload();
      return `Route ${route.name} created${enableNow ? ' and enabled' : ''}.`;
    });
  };

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
            </h2>
            <p>
              To <strong>{providerName(route.providerId)}</strong>: {rulesOf(route)}
            </p>
            <div class="actions">
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
          </li>
        ))}
      </ul>
      <h2>New route</h2>
      {providers.data?.length === 0 ? (
        <p class="empty">
          Add a provider first (<a href="#/providers">Providers</a>).
        </p>
      ) : (
        <form class="route-form" onSubmit={create} aria-label="New route">
          <label>
            Name <input name="name" maxLength={100} />
          </label>
          <label>
            Provider
            <select name="providerId" required>
              {providers.data?.map((provider) => (
                <option key={provider.id} value={provider.id}>
                  {provider.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            At least priority
            <select name="minimumPriority">
              {PRIORITIES.map((priority) => (
                <option key={priority} selected={priority === 'high'}>
                  {priority}
                </option>
              ))}
            </select>
          </label>
          <label>
            Only type <input name="typeId" maxLength={64} placeholder="any" />
          </label>
          <label>
            Only project <input name="project" maxLength={200} placeholder="any" />
          </label>
          <label>
            Only agent <input name="agent" maxLength={100} placeholder="any" />
          </label>
          <label class="switch">
            <input type="checkbox" name="includeMessage" defaultChecked /> Send the message too (off: the
            title only)
          </label>
          <label class="switch">
            <input type="checkbox" name="enableNow" defaultChecked /> Enable it now
          </label>
          <button type="submit">Create route</button>
        </form>
      )}
    </section>
  );
}

/** A route's matching rules in words. */
export function rulesOf(route: RouteView): string {
  const rules = [`priority ${route.minimumPriority} or higher`];
  if (route.typeId) rules.push(`type ${route.typeId}`);
  if (route.project) rules.push(`project ${route.project}`);
  if (route.agent) rules.push(`agent ${route.agent}`);
  rules.push(route.includeMessage ? 'title and message' : 'title only');
  return rules.join(', ');
}
