import { useEffect, useState } from 'preact/hooks';
import type { OutboxItemView, PresentationSettings, Priority } from '../api-types.js';
import { when } from './format.js';

type QuietHours = NonNullable<PresentationSettings['quietHours']>;
type Window = QuietHours['windows'][number];

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'critical'];
/** What switching quiet hours on starts with: every night, only critical alerts. */
const NIGHT: QuietHours = { windows: [{ from: '22:00', to: '07:00' }], minimumPriority: 'critical' };

/**
 * Sends quiet hours hold now: pending, never tried, due later (docs/attention.md "Quiet hours": the
 * send waits in the outbox until the window ends). A retry waiting for its next attempt has attempts.
 */
export function heldSends(pending: OutboxItemView[] | undefined, now = Date.now()): OutboxItemView[] {
  return (pending ?? []).filter(
    (item) =>
      item.operation === 'send' &&
      item.attempts === 0 &&
      item.nextAttemptAt !== null &&
      Date.parse(item.nextAttemptAt) > now,
  );
}

/**
 * config.json's quietHours in the page: on or off at once; windows (from, to, days), the lowest
 * priority that still alerts and the time zone, saved together with Save quiet hours.
 */
export function QuietHoursForm(props: {
  value: QuietHours | null;
  held: OutboxItemView[];
  save: (value: QuietHours | null, said: string) => void;
}) {
  const [draft, setDraft] = useState<QuietHours | null>(props.value);
  useEffect(() => setDraft(props.value), [JSON.stringify(props.value)]);
  const windows = draft?.windows ?? [];
  const setWindow = (index: number, change: Partial<Window>) =>
    draft &&
    setDraft({
      ...draft,
      windows: windows.map((window, at) => (at === index ? { ...window, ...change } : window)),
    });
  const last = props.held
    .map((item) => item.nextAttemptAt!)
    .sort()
    .at(-1);

  return (
    <fieldset>
      <legend>Quiet hours</legend>
      <label class="switch">
        <input
          type="checkbox"
          name="quietHours"
          checked={props.value !== null}
          onChange={(event) => {
            const on = (event.currentTarget as HTMLInputElement).checked;
            props.save(on ? NIGHT : null, on ? 'Quiet hours: on, 22:00 to 07:00.' : 'Quiet hours: off.');
          }}
        />
        Quiet hours (no toasts, sounds, reminders or route sends below a priority)
      </label>
      {props.held.length > 0 && (
        <p class="feedback" role="status">
          Quiet hours hold {props.held.length} send{props.held.length === 1 ? '' : 's'} to providers until{' '}
          {when(last)}; changing or switching off quiet hours sends them when the new hours allow.
        </p>
      )}
      {draft && (
        <form
          aria-label="Quiet hours"
          onSubmit={(event) => {
            event.preventDefault();
            props.save(draft, 'Quiet hours saved.');
          }}
        >
          {windows.map((window, index) => (
            <div class="quiet-window" key={index} role="group" aria-label={`Window ${index + 1}`}>
              <label>
                From
                <input
                  type="time"
                  name="from"
                  required
                  value={window.from}
                  onChange={(event) =>
                    setWindow(index, { from: (event.currentTarget as HTMLInputElement).value })
                  }
                />
              </label>
              <label>
                To
                <input
                  type="time"
                  name="to"
                  required
                  value={window.to}
                  onChange={(event) =>
                    setWindow(index, { to: (event.currentTarget as HTMLInputElement).value })
                  }
                />
              </label>
              <div class="days" role="group" aria-label="Days it starts on (none: every day)">
                {DAYS.map((day) => (
                  <label class="switch" key={day}>
                    <input
                      type="checkbox"
                      name="days"
                      checked={window.days?.includes(day) ?? false}
                      onChange={(event) => {
                        const on = (event.currentTarget as HTMLInputElement).checked;
                        const days = DAYS.filter((d) => (d === day ? on : window.days?.includes(d)));
                        const changed: Window = { from: window.from, to: window.to };
                        if (days.length > 0) changed.days = days;
                        setDraft({ ...draft, windows: windows.map((w, at) => (at === index ? changed : w)) });
                      }}
                    />
                    {day}
                  </label>
                ))}
              </div>
              {windows.length > 1 && (
                <button
                  type="button"
                  onClick={() => setDraft({ ...draft, windows: windows.filter((_, at) => at !== index) })}
                >
                  Remove window
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            onClick={() => setDraft({ ...draft, windows: [...windows, { from: '12:00', to: '13:00' }] })}
          >
            Add a window
          </button>
          <label>
            Still alerts from priority
            <select
              name="minimumPriority"
              value={draft.minimumPriority ?? 'critical'}
              onChange={(event) =>
                setDraft({
                  ...draft,
                  minimumPriority: (event.currentTarget as HTMLSelectElement).value as Priority,
                })
              }
            >
              {PRIORITIES.map((priority) => (
                <option key={priority}>{priority}</option>
              ))}
            </select>
          </label>
          <label>
            Time zone
            <input
              name="timeZone"
              placeholder="this machine's"
              value={draft.timeZone ?? ''}
              onChange={(event) => {
                const zone = (event.currentTarget as HTMLInputElement).value.trim();
                const next: QuietHours = { ...draft };
                if (zone) next.timeZone = zone;
                else delete next.timeZone;
                setDraft(next);
              }}
            />
          </label>
          <button type="submit">Save quiet hours</button>
        </form>
      )}
    </fieldset>
  );
}
