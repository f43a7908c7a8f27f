import { answersWithheld, showControls, TERMINAL_ONLY } from '../../../src/domain/display-controls.js';
import type { NotificationDto } from '../api-types.js';
import { ApiError } from '../api.js';
import type { Feedback } from './feedback.js';
import { useInboxApi } from './inbox-api.js';

interface Props {
  notification: NotificationDto;
  feedback: Feedback;
  /** Told the notification as the broker has it after the change. */
  changed: (notification: NotificationDto) => void;
}

/** Minutes the Snooze button keeps a notification quiet, as the toast's "Snooze 15 min". */
const SNOOZE_MINUTES = 15;

/**
 * Answers that should not look like Allow: Deny refuses, and "Always allow" grants more than this one
 * request (ids of src/domain/hooks/permission-request.ts, which the page does not bundle).
 */
const ANSWER_STYLE: Readonly<Record<string, string>> = { deny: ' refuse', allow_always: ' lasting' };

/**
 * What Resolve and Dismiss do to an agent waiting for an answer, on a line of its own under the buttons
 * (a tooltip alone never shows on a phone): a waiting hook gets no answer and the tool's own prompt in
 * the terminal decides (docs/answers.md).
 */
const UNANSWERED_NOTE =
  'Resolve and Dismiss answer nothing: the agent stops waiting here and asks in its terminal. ' +
  'Resolve marks it handled; Dismiss puts it away.';
const RESOLVE_TIP = 'Handled, without an answer: the agent asks in its terminal instead';
const DISMISS_TIP = 'Put away, without an answer: the agent asks in its terminal instead';

/**
 * The answers a notification offers, as the main buttons, then the lesser resolve, dismiss and (where
 * the API can) snooze, with what they mean to a waiting agent; nothing once it is no longer active. A request whose text holds direction or invisible characters offers no
 * answer, and says to answer in the terminal (conventions.md).
 */
export function NotificationActions({ notification, feedback, changed }: Props) {
  const api = useInboxApi();
  const { snooze } = api;
  if (notification.status !== 'active') return null;
  // The buttons answer the revision drawn here: a request that changed since is refused, not approved.
  const { id, revision } = notification;
  const title = showControls(notification.title);
  const withheld = answersWithheld(notification);
  const act = (label: string, action: () => Promise<NotificationDto>) => () =>
    feedback.run(async () => {
      try {
        changed(await action());
      } catch (failure) {
        // A conflict means it changed since it was drawn (a new revision, an answer from elsewhere):
        // draw it as it is now, with buttons for that, while the refusal says why nothing happened.
        if (failure instanceof ApiError && failure.status === 409) {
          await api.notification(id).then(changed, () => {});
        }
        throw failure;
      }
      return `${label}: ${title}`;
    });
  const asks = notification.actions !== undefined && notification.actions.length > 0;
  return (
    <div class="notification-actions" role="group" aria-label={`What to do with: ${title}`}>
      {withheld && asks && <p class="terminal-only">{TERMINAL_ONLY}</p>}
      {!withheld && asks && (
        <div class="actions">
          {notification.actions!.map((choice) => (
            <button
              key={choice.id}
              class={`answer${ANSWER_STYLE[choice.id] ?? ''}`}
              type="button"
              aria-label={`Answer ${choice.label}: ${title}`}
              onClick={act(`Answered ${choice.label}`, () => api.answer(id, choice.id, revision))}
            >
              {choice.label}
            </button>
          ))}
        </div>
      )}
      <div class="actions">
        <button
          type="button"
          class={asks ? 'secondary' : undefined}
          aria-label={`Resolve: ${title}`}
          title={asks ? RESOLVE_TIP : undefined}
          onClick={act('Resolved', () => api.setStatus(id, 'resolved'))}
        >
          Resolve
        </button>
        <button
          type="button"
          class={asks ? 'secondary' : undefined}
          aria-label={`Dismiss: ${title}`}
          title={asks ? DISMISS_TIP : undefined}
          onClick={act('Dismissed', () => api.dismiss(id))}
        >
          Dismiss
        </button>
        {snooze && (
          <button
            type="button"
            class={asks ? 'secondary' : undefined}
            aria-label={`Snooze ${SNOOZE_MINUTES} minutes: ${title}`}
            onClick={act(`Snoozed for ${SNOOZE_MINUTES} minutes`, () => snooze(id, SNOOZE_MINUTES))}
          >
            Snooze {SNOOZE_MINUTES} min
          </button>
        )}
      </div>
      {asks && <p class="unanswered-note">{UNANSWERED_NOTE}</p>}
    </div>
  );
}
