import { useState } from 'preact/hooks';
import type { OutboxItemView } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { when } from '../parts/format.js';
import { providerNamer, reasonOf } from '../parts/outbox-reason.js';
import { useLoad } from '../parts/use-load.js';

type State = OutboxItemView['state'];
const STATES: State[] = ['dead', 'waiting', 'pending', 'in_flight', 'delivered', 'cancelled'];

/** Deliveries to providers: dead letters with their reasons first, retry, purge what was delivered. */
export function Outbox() {
  const api = useApi();
  const feedback = useFeedback();
  const [state, setState] = useState<State>('dead');
  const counts = useLoad(() => api.outboxCounts());
  const items = useLoad(() => api.outbox(state), state);
  const providers = useLoad(() => api.providers());
  const providerName = providerNamer(providers.data);
  const reload = () => {
    counts.reload();
    items.reload();
  };

  return (
    <section aria-labelledby="outbox-heading">
      <h1 id="outbox-heading">Outbox</h1>
      {feedback.view}
      <LoadError error={items.error ?? counts.error} />
      <div class="tabs" role="group" aria-label="Items by state">
        {STATES.map((name) => (
          <button key={name} type="button" aria-pressed={state === name} onClick={() => setState(name)}>
            {name.replace('_', ' ')} <span class="count">{counts.data?.[name] ?? ''}</span>
          </button>
        ))}
      </div>
      <button
        type="button"
        onClick={() =>
          feedback.run(async () => {
            const { purged } = await api.purgeDelivered();
            reload();
            return `Purged ${purged} delivered item${purged === 1 ? '' : 's'}.`;
          })
        }
      >
        Purge delivered
      </button>
      {items.data?.length === 0 && <p class="empty">No {state.replace('_', ' ')} item.</p>}
      {items.data && items.data.length > 0 && (
        <div class="table">
          <table class="stacked">
            <caption class="sr-only">Outbox items: {state}</caption>
            <thead>
              <tr>
                <th scope="col">Notification</th>
                <th scope="col">Event</th>
                <th scope="col">Provider</th>
                <th scope="col">Attempts</th>
                <th scope="col">Reason</th>
                <th scope="col">Changed</th>
                {state === 'dead' && (
                  <th scope="col">
                    <span class="sr-only">Retry</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {items.data.map((item) => (
                <tr key={item.id}>
                  <td data-label="Notification">
                    <a href={`#/n/${encodeURIComponent(item.notificationId)}`}>{item.notificationId}</a>
                  </td>
                  <td data-label="Event">{item.event}</td>
                  <td data-label="Provider">{providerName(item.providerId)}</td>
                  <td data-label="Attempts">{item.attempts}</td>
                  <td data-label="Reason">{reasonOf(item)}</td>
                  <td data-label="Changed">{when(item.updatedAt)}</td>
                  {state === 'dead' && (
                    <td>
                      <button
                        type="button"
                        aria-label={`Retry item ${item.id}`}
                        onClick={() =>
                          feedback.run(async () => {
                            await api.retry(item.id);
                            reload();
                            return `Item ${item.id} is back in line.`;
                          })
                        }
                      >
                        Retry
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
