import type { Priority, TypeDefinitionBody, TypeEntry } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { useLoad } from '../parts/use-load.js';
import { soundNames } from './settings.js';

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'critical'];

/**
 * Every field PUT /v1/types/{id} takes. The PUT replaces the whole definition, so a change made here
 * sends them all back (the reminders set in config.json stay); a field the API gains and this list
 * lacks breaks the page's build.
 */
const BODY_FIELDS: Record<keyof TypeDefinitionBody, true> = {
  enabled: true,
  defaultPriority: true,
  lifetimeSeconds: true,
  icon: true,
  sound: true,
  needsPerson: true,
  resolveAfterMinutes: true,
  remindEveryMinutes: true,
  remindTimes: true,
};

function bodyOf(entry: TypeEntry): TypeDefinitionBody {
  return Object.fromEntries(
    Object.keys(BODY_FIELDS)
      .filter((field) => entry[field] !== undefined)
      .map((field) => [field, entry[field]]),
  ) as TypeDefinitionBody;
}

/** Notification types: switch them on and off, their default priority and sound; add and remove. */
export function Types() {
  const api = useApi();
  const feedback = useFeedback();
  const types = useLoad(() => api.types());
  const sounds = useLoad(() => api.sounds());
  const soundChoices = soundNames(sounds.data?.map((entry) => entry.name));

  const put = (type: TypeEntry, change: Partial<TypeEntry>, said: string) =>
    feedback.run(async () => {
      await api.putType(type.id, bodyOf({ ...type, ...change }));
      types.reload();
      return said;
    });

  const add = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const id = String(data.get('id') ?? '').trim();
    const defaultPriority = String(data.get('defaultPriority')) as Priority;
    void feedback.run(async () => {
      await api.putType(id, { enabled: true, defaultPriority });
      form.reset();
      types.reload();
      return `Type ${id} added.`;
    });
  };

  return (
    <section aria-labelledby="types-heading">
      <h1 id="types-heading">Types</h1>
      {feedback.view}
      <LoadError error={types.error} />
      <div class="table">
        <table>
          <caption class="sr-only">Notification types</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">On</th>
              <th scope="col">Priority</th>
              <th scope="col">Sound</th>
              <th scope="col">
                <span class="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {types.data?.map((type) => (
              <tr key={type.id}>
                <th scope="row">
                  {type.id}
                  {type.builtin && <span class="tag">built-in</span>}
                </th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${type.id} enabled`}
                    checked={type.enabled}
                    onChange={(event) => {
                      const on = (event.currentTarget as HTMLInputElement).checked;
                      void put(type, { enabled: on }, `${type.id} ${on ? 'enabled' : 'disabled'}.`);
                    }}
                  />
                </td>
                <td>
                  <select
                    aria-label={`${type.id} default priority`}
                    value={type.defaultPriority ?? 'normal'}
                    onChange={(event) => {
                      const priority = (event.currentTarget as HTMLSelectElement).value as Priority;
                      void put(type, { defaultPriority: priority }, `${type.id}: priority ${priority}.`);
                    }}
                  >
                    {PRIORITIES.map((priority) => (
                      <option key={priority}>{priority}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <select
                    aria-label={`${type.id} sound`}
                    value={type.sound ?? ''}
                    onChange={(event) => {
                      const sound = (event.currentTarget as HTMLSelectElement).value || undefined;
                      void put(type, { sound }, `${type.id}: sound ${sound ?? 'by priority'}.`);
                    }}
                  >
                    <option value="">by priority</option>
                    {soundChoices.map((name) => (
                      <option key={name}>{name}</option>
                    ))}
                  </select>
                </td>
                <td>
                  {!type.builtin && (
                    <button
                      type="button"
                      aria-label={`Remove type ${type.id}`}
                      onClick={() =>
                        feedback.run(async () => {
                          await api.deleteType(type.id);
                          types.reload();
                          return `Type ${type.id} removed.`;
                        })
                      }
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="inline" onSubmit={add} aria-label="Add a type">
        <label>
          New type <input name="id" required pattern="[a-z][a-z0-9_]{0,63}" />
        </label>
        <label>
          Priority
          <select name="defaultPriority">
            {PRIORITIES.map((priority) => (
              <option key={priority} selected={priority === 'normal'}>
                {priority}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add type</button>
      </form>
    </section>
  );
}
