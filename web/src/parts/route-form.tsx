import { NEW_ROUTE } from '../../../src/domain/delivery/route-defaults.js';
import type { Priority, ProviderView, RouteInput, RouteView } from '../api-types.js';
import { delayText, parseDelay } from './delay.js';

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'critical'];

/**
 * A route's fields as the form holds them; `route` fills them in to change one, else the defaults every
 * new route has (NEW_ROUTE, as `notifyctl routes add` gets them).
 */
export function RouteForm(props: {
  providers: ProviderView[];
  route?: RouteView;
  label: string;
  submit: string;
  onSubmit: (input: RouteInput, enableNow: boolean, form: HTMLFormElement) => void;
  onCancel?: () => void;
}) {
  const { route } = props;
  const save = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const delay = text('delay');
    let delaySeconds: number;
    try {
      delaySeconds = parseDelay(delay);
    } catch (failure) {
      const field = form.elements.namedItem('delay') as HTMLInputElement;
      field.setCustomValidity((failure as Error).message);
      field.reportValidity();
      return;
    }
    const input: RouteInput = {
      providerId: text('providerId'),
      minimumPriority: text('minimumPriority') as Priority,
      typeId: text('typeId') || null,
      project: text('project') || null,
      agent: text('agent') || null,
      includeMessage: data.get('includeMessage') === 'on',
      delaySeconds,
      sendDuringQuietHours: data.get('sendDuringQuietHours') === 'on',
      ...(text('name') && { name: text('name') }),
    };
    props.onSubmit(input, data.get('enableNow') === 'on', form);
  };
  return (
    <form class="route-form" onSubmit={save} aria-label={props.label}>
      <label>
        Name <input name="name" maxLength={100} defaultValue={route?.name ?? ''} />
      </label>
      <label>
        Provider
        <select name="providerId" required>
          {props.providers.map((provider) => (
            <option key={provider.id} value={provider.id} selected={provider.id === route?.providerId}>
              {provider.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        At least priority
        <select name="minimumPriority">
          {PRIORITIES.map((priority) => (
            <option
              key={priority}
              selected={priority === (route?.minimumPriority ?? NEW_ROUTE.minimumPriority)}
            >
              {priority}
            </option>
          ))}
        </select>
      </label>
      <label>
        Only type <input name="typeId" maxLength={64} placeholder="any" defaultValue={route?.typeId ?? ''} />
      </label>
      <label>
        Only project{' '}
        <input name="project" maxLength={200} placeholder="any" defaultValue={route?.project ?? ''} />
      </label>
      <label>
        Only agent <input name="agent" maxLength={100} placeholder="any" defaultValue={route?.agent ?? ''} />
      </label>
      <label>
        Wait before sending{' '}
        <input
          name="delay"
          maxLength={12}
          placeholder="0: at once; 90s, 5m, 1h"
          defaultValue={waitText(route?.delaySeconds ?? NEW_ROUTE.delaySeconds)}
          onInput={(event) => (event.currentTarget as HTMLInputElement).setCustomValidity('')}
        />
        <small>Sent only if nobody handled the request meanwhile (at most 24h).</small>
      </label>
      <label class="switch">
        <input
          type="checkbox"
          name="includeMessage"
          defaultChecked={route?.includeMessage ?? NEW_ROUTE.includeMessage}
        />{' '}
        Send the message too (off: the title only)
      </label>
      <label class="switch">
        <input
          type="checkbox"
          name="sendDuringQuietHours"
          defaultChecked={route?.sendDuringQuietHours ?? NEW_ROUTE.sendDuringQuietHours}
        />{' '}
        Send during quiet hours (off: a send waits for their end)
      </label>
      {!route && (
        <label class="switch">
          <input type="checkbox" name="enableNow" defaultChecked={NEW_ROUTE.enabled} /> Enable it now
        </label>
      )}
      <div class="actions">
        <button type="submit">{props.submit}</button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** The wait field's text: blank for none (its placeholder says 0 sends at once). */
const waitText = (seconds: number) => (seconds > 0 ? delayText(seconds) : '');
