import { useState } from 'preact/hooks';
import type { ProviderInput, ProviderKindOnWire, ProviderView, SettingOnWire } from '../api-types.js';

type Value = string | number | boolean | null;

interface Props {
  kinds: ProviderKindOnWire[];
  /** The provider being changed; absent for a new one. */
  provider?: ProviderView;
  save: (input: ProviderInput, enableNow: boolean) => void;
  cancel?: () => void;
}

/**
 * A provider's form, generated from its kind's declared settings (the declarations that drive the API,
 * the CLI and the docs). Secrets are write-only: the form says whether one is set and never shows it.
 */
export function ProviderForm({ kinds, provider, save, cancel }: Props) {
  const [kindId, setKindId] = useState(provider?.kind ?? kinds[0]?.id ?? '');
  const kind = kinds.find((candidate) => candidate.id === kindId);
  const prefix = provider ? `edit-${provider.id}` : 'new';

  const submit = (event: Event) => {
    event.preventDefault();
    if (!kind) return;
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const settings: Record<string, Value> = {};
    for (const setting of kind.settings) {
      const value = valueOf(setting, form, data);
      const before = provider?.settings[setting.name];
      // A set secret ticked "Clear it" is sent as null: removed, as `providers set --clear-secret` does.
      const clear = setting.secret && data.get(`clear-${setting.name}`) === 'on';
      if (clear) settings[setting.name] = null;
      if (clear || (setting.secret ? value === undefined : value === (before ?? undefined))) continue;
      settings[setting.name] = value ?? null;
    }
    const name = String(data.get('name') ?? '').trim();
    const input: ProviderInput = provider
      ? { ...(name !== provider.name && { name }), settings }
      : { kind: kind.id, ...(name && { name }), settings };
    save(input, data.get('enableNow') === 'on');
  };

  return (
    <form
      class="provider-form"
      onSubmit={submit}
      aria-label={provider ? `Change ${provider.name}` : 'New provider'}
    >
      {!provider && (
        <label>
          Kind
          <select
            name="kind"
            value={kindId}
            onChange={(e) => setKindId((e.currentTarget as HTMLSelectElement).value)}
          >
            {kinds.map((k) => (
              <option key={k.id} value={k.id}>
                {k.title}
              </option>
            ))}
          </select>
        </label>
      )}
      {kind && <p class="help">{kind.description}</p>}
      <label>
        Name{' '}
        <input name="name" maxLength={100} defaultValue={provider?.name ?? ''} placeholder={kind?.title} />
      </label>
      {kind?.settings.map((setting) => (
        <SettingField
          key={`${kind.id}-${setting.name}`}
          idPrefix={prefix}
          setting={setting}
          current={provider?.settings[setting.name]}
          secretSet={provider?.secrets[setting.name]}
        />
      ))}
      {!provider && (
        <label class="switch">
          <input type="checkbox" name="enableNow" defaultChecked /> Enable it now
        </label>
      )}
      <div class="actions">
        <button type="submit">{provider ? 'Save' : 'Create provider'}</button>
        {cancel && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

interface FieldProps {
  idPrefix: string;
  setting: SettingOnWire;
  current: string | number | boolean | undefined;
  secretSet: boolean | undefined;
}

function SettingField({ idPrefix, setting, current, secretSet }: FieldProps) {
  const id = `${idPrefix}-${setting.name}`;
  const helpId = `${id}-help`;
  const initial = current ?? setting.default;
  const label = (
    <span class="label">
      {setting.name}
      {setting.required && <span aria-hidden="true"> *</span>}
      {setting.secret && <span class="tag secret-state">{secretSet ? 'set' : 'not set'}</span>}
    </span>
  );
  const common = {
    id,
    name: `setting-${setting.name}`,
    'aria-describedby': helpId,
  };
  let input;
  if (setting.type === 'boolean') {
    input = <input type="checkbox" {...common} defaultChecked={initial === true} />;
  } else if (setting.type === 'enum') {
    input = (
      <select {...common} required={setting.required}>
        {!setting.required && <option value="">—</option>}
        {setting.choices?.map((choice) => (
          <option key={choice} selected={choice === initial}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else if (setting.secret) {
    input = (
      <input
        type="password"
        {...common}
        autoComplete="new-password"
        required={setting.required && !secretSet}
        placeholder={secretSet ? 'set: leave empty to keep' : 'not set'}
      />
    );
  } else {
    const shown = {
      ...common,
      defaultValue: initial === undefined ? '' : String(initial),
      required: setting.required,
    };
    if (setting.type === 'integer') input = <input type="number" {...shown} />;
    else if (setting.type === 'url') input = <input type="url" {...shown} />;
    else input = <input type="text" {...shown} />;
  }
  return (
    <div class={`field ${setting.type === 'boolean' ? 'switch' : ''}`}>
      <label for={id}>{label}</label>
      {input}
      {setting.secret && secretSet && !setting.required && (
        <label class="switch">
          <input type="checkbox" name={`clear-${setting.name}`} /> Clear it (remove the stored {setting.name})
        </label>
      )}
      <small id={helpId} class="help">
        {setting.help}
      </small>
    </div>
  );
}

/** The form's value of one setting in its declared type; undefined when left empty. */
function valueOf(setting: SettingOnWire, form: HTMLFormElement, data: FormData): Value | undefined {
  const name = `setting-${setting.name}`;
  if (setting.type === 'boolean') return (form.elements.namedItem(name) as HTMLInputElement).checked;
  const text = String(data.get(name) ?? '').trim();
  if (text === '') return undefined;
  return setting.type === 'integer' ? Number(text) : text;
}
