import { useState } from 'preact/hooks';
import type { HistoryQuery, NotificationDto, Status } from '../api-types.js';
import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { NotificationRow } from '../parts/notification-row.js';
import { useLoad } from '../parts/use-load.js';

const PAGE_SIZE = 50;

type Filters = Omit<HistoryQuery, 'before' | 'limit'>;

/** Every notification, newest first: search, filters and cursor paging (fast at any depth). */
export function History() {
  const api = useApi();
  const feedback = useFeedback();
  const [filters, setFilters] = useState<Filters>({});
  /** The cursors of the pages walked so far; the last one is shown. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const page = useLoad(
    () => api.history({ ...filters, limit: PAGE_SIZE, ...(before !== undefined && { before }) }),
    JSON.stringify([filters, before]),
  );
  const [changes, setChanges] = useState<Record<string, NotificationDto>>({});

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const status = text('status') as Status | undefined;
    setFilters({
      q: text('q'),
      status,
      type: text('type'),
      agent: text('agent'),
      project: text('project'),
    });
    setCursors([undefined]);
  };

  return (
    <section aria-labelledby="history-heading">
      <h1 id="history-heading">History</h1>
      <form class="filters" role="search" onSubmit={search}>
        <label>
          Search <input name="q" type="search" placeholder="title, message, agent, project" />
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            <option value="active">active</option>
            <option value="resolved">resolved</option>
            <option value="dismissed">dismissed</option>
          </select>
        </label>
        <label>
          Type <input name="type" />
        </label>
        <label>
          Agent <input name="agent" />
        </label>
        <label>
          Project <input name="project" />
        </label>
        <button type="submit">Search</button>
      </form>
      {feedback.view}
      <LoadError error={page.error} />
      {page.data && page.data.items.length === 0 && <p class="empty">No notification matches.</p>}
      <ul class="notifications" aria-label="Notifications found">
        {page.data?.items.map((n) => (
          <NotificationRow
            key={n.id}
            notification={changes[n.id] ?? n}
            feedback={feedback}
            changed={(after) => setChanges((all) => ({ ...all, [after.id]: after }))}
          />
        ))}
      </ul>
      <nav class="paging" aria-label="Pages">
        <button
          type="button"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          disabled={!page.data?.nextCursor}
          onClick={() => page.data?.nextCursor && setCursors([...cursors, page.data.nextCursor])}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
