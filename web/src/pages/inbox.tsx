import { useEffect, useRef, useState } from 'preact/hooks';
import type { NotificationDto } from '../api-types.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { useInboxApi } from '../parts/inbox-api.js';
import { applyChange, inboxOf, needsReload, RECENT_COUNT, type InboxState } from '../parts/inbox-state.js';
import { NotificationRow } from '../parts/notification-row.js';
import { messageOf } from '../parts/use-load.js';

/**
 * The inbox shows this many active notifications at most: a flood (a runaway script) keeps the page
 * and the machine responsive, and History pages through the rest.
 */
const SHOWN_ACTIVE = 100;

/** Changes from the stream are gathered this long and drawn together. */
const DRAW_EVERY_MS = 50;

interface Props {
  /** Whether titles open the notification's page and History exists (the broker's page, not the relay's). */
  linked?: boolean;
}

const applyWithin = (state: InboxState, changed: NotificationDto) =>
  applyChange(state, changed, SHOWN_ACTIVE);

/** What waits for the person, live: the event stream keeps it current without a reload. */
export function Inbox({ linked = true }: Props) {
  const api = useInboxApi();
  const feedback = useFeedback();
  const [state, setState] = useState<InboxState | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  // Changes that came while a list was being fetched: its answer may predate them, so they are applied
  // on top of it rather than lost under it.
  const sinceLoad = useRef<NotificationDto[] | undefined>(undefined);

  useEffect(() => {
    let current = true;
    const load = () => {
      sinceLoad.current = [];
      return Promise.all([api.active(SHOWN_ACTIVE), api.recent(RECENT_COUNT + 10)]).then(
        ([active, recent]) => {
          const missed = sinceLoad.current ?? [];
          sinceLoad.current = undefined;
          if (!current) return;
          setState(missed.reduce(applyWithin, inboxOf(active, recent, SHOWN_ACTIVE)));
        },
        (failure: unknown) => {
          sinceLoad.current = undefined;
          if (current) setError(messageOf(failure));
        },
      );
    };
    // One load at a time; a reset that comes during one asks for another once it is done, so the last
    // word of the stream is always drawn.
    let reloading = false;
    let reloadAgain = false;
    const reloadOnce = () => {
      if (reloading) {
        reloadAgain = true;
        return;
      }
      reloading = true;
      void load().finally(() => {
        reloading = false;
        if (reloadAgain) {
          reloadAgain = false;
          reloadOnce();
        }
      });
    };
    reloadOnce();
    // A burst of changes (a script raising thousands) is drawn once per tick, not once per change.
    const pending = new Map<string, NotificationDto>();
    let flushing: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushing = undefined;
      const changes = [...pending.values()];
      pending.clear();
      sinceLoad.current?.push(...changes);
      setState((before) => {
        const after = before && changes.reduce(applyWithin, before);
        if (after && needsReload(after, SHOWN_ACTIVE)) reloadOnce();
        return after;
      });
    };
    const stop = api.follow((name, notification) => {
      if (name === 'reset' || notification === undefined) return reloadOnce();
      pending.delete(notification.id);
      pending.set(notification.id, notification);
      flushing ??= setTimeout(flush, DRAW_EVERY_MS);
    });
    return () => {
      current = false;
      clearTimeout(flushing);
      stop();
    };
  }, [api]);

  const changed = (notification: NotificationDto) => {
    sinceLoad.current?.push(notification);
    setState((before) => before && applyWithin(before, notification));
  };

  return (
    <section aria-labelledby="inbox-heading">
      <h1 id="inbox-heading">Inbox</h1>
      {feedback.view}
      <LoadError error={error} />
      {state && (
        <>
          <h2>
            Waiting{' '}
            <span class="count">
              {state.active.length}
              {state.complete ? '' : '+'}
            </span>
          </h2>
          {state.active.length === 0 ? (
            <p class="empty">Nothing waits for you.</p>
          ) : (
            <ul class="notifications" aria-label="Active notifications" id="active">
              {state.active.map((n) => (
                <NotificationRow
                  key={n.id}
                  notification={n}
                  feedback={feedback}
                  changed={changed}
                  linked={linked}
                />
              ))}
            </ul>
          )}
          {!state.complete && (
            <p class="more">
              More are active than shown here
              {linked && (
                <>
                  : <a href="#/history">see History</a>
                </>
              )}
              .
            </p>
          )}
          {state.recent.length > 0 && (
            <>
              <h2>Recently handled</h2>
              <ul class="notifications" aria-label="Recently handled notifications" id="recent">
                {state.recent.map((n) => (
                  <NotificationRow
                    key={n.id}
                    notification={n}
                    feedback={feedback}
                    changed={changed}
                    linked={linked}
                  />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
