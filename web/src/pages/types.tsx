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

/** Notification types: every field `notifyctl types set` changes (reminders included); add and remove. */
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
      <ul class="plain cards types">
        {types.data?.map((type) => (
          <li key={type.id} class="card" data-id={type.id}>
            <h2>
              {type.id}
              {type.builtin && <span class="tag">built-in</span>}
            </h2>
            <div class="fields">
              <label class="switch">
                <input
                  type="checkbox"
                  aria-label={`${type.id} enabled`}
                  checked={type.enabled}
                  onChange={(event) => {
                    const on = (event.currentTarget as HTMLInputElement).checked;
                    void put(type, { enabled: on }, `${type.id} ${on ? 'enabled' : 'disabled'}.`);
                  }}
                />
                On
              </label>
              <label>
                Priority
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
              </label>
              <label>
                Sound
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
              </label>
              {NUMBER_FIELDS.map(([field, label, said]) => (
                <NumberField key={field} type={type} field={field} label={label} said={said} put={put} />
              ))}
              <label>
                Icon
                <input
                  name={`${type.id}-icon`}
                  aria-label={`${type.id} icon`}
                  placeholder="default"
                  value={type.icon ?? ''}
                  onChange={(event) => {
                    const icon = (event.currentTarget as HTMLInputElement).value.trim() || undefined;
                    void put(type, { icon }, `${type.id}: icon ${icon ?? 'by default'}.`);
                  }}
                />
              </label>
              <label>
                Needs a person
                <select
                  aria-label={`${type.id} needs a person`}
                  value={type.needsPerson === undefined ? '' : type.needsPerson ? 'yes' : 'no'}
                  onChange={(event) => {
                    const text = (event.currentTarget as HTMLSelectElement).value;
                    const needsPerson = text === '' ? undefined : text === 'yes';
                    void put(type, { needsPerson }, `${type.id}: needs a person ${text || 'by default'}.`);
                  }}
                >
                  <option value="">default</option>
                  <option value="yes">yes</option>
                  <option value="no">no</option>
                </select>
              </label>
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
            </div>
          </li>
        ))}
      </ul>
      <p class="help">
        Reminders: an unanswered request of the type alerts again, toast and sound, every so many minutes, at
        most so many times (empty: the default, every 5 minutes 3 times for permission_required and
        input_required, never for the others; 0 turns them off).
      </p>
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

type NumberFieldName = 'lifetimeSeconds' | 'resolveAfterMinutes' | 'remindEveryMinutes' | 'remindTimes';

/** The number fields of a type (as `notifyctl types set` takes them): field, label, what a change says. */
const NUMBER_FIELDS: [NumberFieldName, string, (value: number | undefined) => string][] = [
  [
    'lifetimeSeconds',
    'Toast lifetime (seconds)',
    (v) =>
      v === undefined
        ? 'toast lifetime by default'
        : v === 0
          ? 'toast stays until acted on'
          : `toast lasts ${v} s`,
  ],
  [
    'resolveAfterMinutes',
    'Resolve after (minutes)',
    (v) =>
      v === undefined
        ? 'resolves as by default'
        : v === 0
          ? 'never resolves by itself'
          : `resolves after ${v} min`,
  ],
  [
    'remindEveryMinutes',
    'Remind every (minutes)',
    (v) =>
      v === undefined ? 'reminders as by default' : v === 0 ? 'no reminders' : `reminds every ${v} min`,
  ],
  [
    'remindTimes',
    'Reminders at most',
    (v) => (v === undefined ? 'reminder count as by default' : `at most ${v} reminders`),
  ],
];

/** A number field of a type: empty is the default, 0 turns it off; saved when it changes. */
function NumberField(props: {
  type: TypeEntry;
  field: NumberFieldName;
  label: string;
  said: (value: number | undefined) => string;
  put: (type: TypeEntry, change: Partial<TypeEntry>, said: string) => unknown;
}) {
  const { type, field } = props;
  return (
    <label>
      {props.label}
      <input
        type="number"
        min={0}
        step={field === 'remindTimes' ? 1 : 'any'}
        name={`${type.id}-${field}`}
        aria-label={`${type.id} ${props.label.toLowerCase()}`}
        placeholder="default"
        value={type[field] ?? ''}
        onChange={(event) => {
          const text = (event.currentTarget as HTMLInputElement).value.trim();
          const value = text === '' ? undefined : Number(text);
          void props.put(type, { [field]: value }, `${type.id}: ${props.said(value)}.`);
        }}
      />
    </label>
  );
}
