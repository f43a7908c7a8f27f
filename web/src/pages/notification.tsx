import { useEffect, useState } from 'preact/hooks';
import { showControls as shown } from '../../../src/domain/display-controls.js';
import { canFocus, describePlace } from '../../../src/domain/origin.js';
import type { NotificationDto } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { when } from '../parts/format.js';
import { NotificationActions } from '../parts/notification-actions.js';
import { providerNamer, reasonOf } from '../parts/outbox-reason.js';
import { useLoad } from '../parts/use-load.js';

/** One notification: every field, its lifecycle, its deliveries and its answer. */
export function NotificationPage({ id }: { id: string }) {
  const api = useApi();
  const feedback = useFeedback();
  const loaded = useLoad(() => api.notification(id), id);
  const deliveries = useLoad(() => api.deliveries(id), id);
  const providers = useLoad(() => api.providers());
  const providerName = providerNamer(providers.data);
  const [changed, setChanged] = useState<NotificationDto | undefined>(undefined);
  const n = changed?.id === id ? changed : loaded.data;
  // What happens elsewhere (the agent resolved it, the person answered from the phone) shows here at
  // once, so nobody answers a request that has already ended.
  useEffect(
    () =>
      api.follow((name, notification) => {
        if (name === 'reset' || notification === undefined) {
          setChanged(undefined);
          return loaded.reload();
        }
        if (notification.id !== id) return;
        setChanged(notification);
        deliveries.reload();
      }),
    [api, id],
  );

  return (
    <section aria-labelledby="notification-heading">
      <h1 id="notification-heading">{n ? shown(n.title) : 'Notification'}</h1>
      {feedback.view}
      <LoadError error={loaded.error} />
      {n && (
        <>
          <NotificationActions
            notification={n}
            feedback={feedback}
            changed={(after) => {
              setChanged(after);
              deliveries.reload();
            }}
          />
          {canFocus(n.origin) && (
            <p>
              <button
                type="button"
                aria-label={`Go to the agent: ${shown(n.title)}`}
                onClick={() =>
                  feedback.run(async () => {
                    const result = await api.focus(n.id);
                    return `Went to the agent (${result.how})`;
                  })
                }
              >
                Go to the agent
              </button>
            </p>
          )}
          {n.message && <p class="message">{shown(n.message)}</p>}
          <h2>Lifecycle</h2>
          <ol class="lifecycle">
            <li>Created {when(n.createdAt)}</li>
            {n.updatedAt !== n.createdAt && <li>Last changed {when(n.updatedAt)}</li>}
            {n.answer && (
              <li>
                Answered <strong>{n.answer.action}</strong> from {n.answer.surface}{' '}
                {when(n.answer.answeredAt)}
              </li>
            )}
            {n.resolvedAt && <li>Resolved {when(n.resolvedAt)}</li>}
            <li>
              Now <strong>{n.status}</strong>
            </li>
          </ol>
          <h2>Fields</h2>
          <dl class="fields">
            {fieldsOf(n).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h2>Deliveries</h2>
      <LoadError error={deliveries.error} />
      {deliveries.data?.length === 0 && <p class="empty">No provider delivery for this notification.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <div class="table">
          <table>
            <caption class="sr-only">Outbox items of this notification</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Provider</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Reason</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((item) => (
                <tr key={item.id}>
                  <td>{item.event}</td>
                  <td>{providerName(item.providerId)}</td>
                  <td>{item.state}</td>
                  <td>{item.attempts}</td>
                  <td>{reasonOf(item)}</td>
                  <td>{when(item.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Every field of the Notification resource, in the spec's order; absent ones are skipped. Direction and
 * invisible characters show as `⟨U+202E⟩`.
 */
function fieldsOf(n: NotificationDto): [string, string][] {
  const fields: [string, unknown][] = [
    ['id', n.id],
    ['key', n.key],
    ['agent', n.agent],
    ['raisedBy', n.raisedBy],
    ['agentInstance', n.agentInstance],
    ['project', n.project],
    ['type', n.type],
    ['priority', n.priority],
    ['status', n.status],
    ['cwd', n.cwd],
    ['pid', n.pid],
    ['origin', n.origin?.map(describePlace).join(', in ')],
    ['createdAt', n.createdAt],
    ['updatedAt', n.updatedAt],
    ['resolvedAt', n.resolvedAt],
    ['actions', n.actions?.map((action) => `${action.label} (${action.id})`).join(', ')],
    ['answer', n.answer && `${n.answer.action} from ${n.answer.surface} at ${n.answer.answeredAt}`],
    ['metadata', n.metadata === null ? undefined : JSON.stringify(n.metadata, null, 2)],
  ];
  return fields
    .filter((field): field is [string, string | number] => field[1] !== undefined && field[1] !== '')
    .map(([name, value]) => [name, shown(String(value))]);
}
