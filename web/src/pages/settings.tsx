import type { PresentationSettings, Priority, SettingsPatch } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { heldSends, QuietHoursForm } from '../parts/quiet-hours-form.js';
import { useLoad } from '../parts/use-load.js';

type Switch = {
  [Field in keyof PresentationSettings]: PresentationSettings[Field] extends boolean ? Field : never;
}[keyof PresentationSettings];

const SWITCHES: [Switch, string][] = [
  ['pauseNotifications', 'Pause notifications (no toasts, no sounds; everything is still kept)'],
  ['doNotDisturb', 'Do not disturb (toasts still appear, without sounds)'],
  ['soundsEnabled', 'Play sounds'],
  ['playCriticalSoundsDuringDoNotDisturb', 'Play critical sounds during do not disturb'],
  [
    'quietWhileFocused',
    "Quiet while looking (no toast or sound for a request whose terminal you're in, for the wait below)",
  ],
];

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'critical'];

/** The presentation settings of config.json; each change is saved at once. */
export function Settings() {
  const api = useApi();
  const feedback = useFeedback();
  const settings = useLoad(() => api.settings());
  const sounds = useLoad(() => api.sounds());
  const pending = useLoad(() => api.outbox('pending'));
  const s = settings.data;
  const change = (shown: PresentationSettings, patch: SettingsPatch, said: string) => {
    // Shown at once: a controlled input that waited for the broker would flip back until it answers.
    settings.set(shown);
    return feedback.run(async () => {
      try {
        settings.set(await api.changeSettings(patch));
      } catch (failure) {
        settings.reload();
        throw failure;
      }
      pending.reload();
      return said;
    });
  };
  return (
    <section aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      {feedback.view}
      <LoadError error={settings.error} />
      {s && (
        <form class="settings" onSubmit={(event) => event.preventDefault()}>
          <fieldset>
            <legend>Attention</legend>
            {SWITCHES.map(([field, label]) => (
              <label class="switch" key={field}>
                <input
                  type="checkbox"
                  name={field}
                  checked={s[field]}
                  onChange={(event) => {
                    const on = (event.currentTarget as HTMLInputElement).checked;
                    void change(
                      { ...s, [field]: on },
                      { [field]: on },
                      `${label.replace(/ \(.*/, '')}: ${on ? 'on' : 'off'}.`,
                    );
                  }}
                />
                {label}
              </label>
            ))}
            <label>
              Toasts shown at once
              <input
                type="number"
                name="maxVisibleToasts"
                min={1}
                value={s.maxVisibleToasts}
                onChange={(event) => {
                  const value = Number((event.currentTarget as HTMLInputElement).value);
                  void change(
                    { ...s, maxVisibleToasts: value },
                    { maxVisibleToasts: value },
                    `Toasts shown at once: ${value}.`,
                  );
                }}
              />
            </label>
            <label>
              Wait while looking (seconds)
              <input
                type="number"
                name="focusGraceSeconds"
                min={0}
                max={3600}
                value={s.focusGraceSeconds}
                onChange={(event) => {
                  const value = Number((event.currentTarget as HTMLInputElement).value);
                  void change(
                    { ...s, focusGraceSeconds: value },
                    { focusGraceSeconds: value },
                    `Wait while looking: ${value} s.`,
                  );
                }}
              />
            </label>
          </fieldset>
          <fieldset>
            <legend>Sound by priority</legend>
            {PRIORITIES.map((priority) => (
              <label key={priority}>
                {priority}
                <select
                  name={`sound-${priority}`}
                  value={s.soundsByPriority[priority]}
                  onChange={(event) => {
                    const sound = (event.currentTarget as HTMLSelectElement).value;
                    void change(
                      { ...s, soundsByPriority: { ...s.soundsByPriority, [priority]: sound } },
                      { soundsByPriority: { [priority]: sound } },
                      `Sound for ${priority}: ${sound}.`,
                    );
                  }}
                >
                  {soundNames(
                    sounds.data?.map((entry) => entry.name),
                    s.soundsByPriority[priority],
                  ).map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
        </form>
      )}
      {s && (
        <QuietHoursForm
          value={s.quietHours}
          held={heldSends(pending.data)}
          save={(quietHours, said) => void change({ ...s, quietHours }, { quietHours }, said)}
        />
      )}
    </section>
  );
}

/** The choices of a sound menu: none, every known sound, and the current one even if it is gone. */
export function soundNames(known: string[] | undefined, current?: string): string[] {
  return [...new Set(['none', ...(known ?? []), ...(current ? [current] : [])])];
}
