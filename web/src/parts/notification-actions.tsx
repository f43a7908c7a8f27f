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
 * The answers a notification offers, then resolve, dismiss and (where the API can) snooze; nothing
 * once it is no longer active. A request whose text holds direction or invisible characters offers no
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
  return (
    <div class="actions" role="group" aria-label={`What to do with: ${title}`}>
      {withheld && notification.actions && <p class="terminal-only">{TERMINAL_ONLY}</p>}
      {!withheld &&
        notification.actions?.map((choice) => (
          <button
            key={choice.id}
            class="answer"
            type="button"
            aria-label={`Answer ${choice.label}: ${title}`}
            onClick={act(`Answered ${choice.label}`, () => api.answer(id, choice.id, revision))}
          >
            {choice.label}
          </button>
        ))}
      <button
        type="button"
        aria-label={`Resolve: ${title}`}
        onClick={act('Resolved', () => api.setStatus(id, 'resolved'))}
      >
        Resolve
      </button>
      <button
        type="button"
        aria-label={`Dismiss: ${title}`}
        onClick={act('Dismissed', () => api.dismiss(id))}
      >
        Dismiss
      </button>
      {snooze && (
        <button
          type="button"
          aria-label={`Snooze ${SNOOZE_MINUTES} minutes: ${title}`}
          onClick={act(`Snoozed for ${SNOOZE_MINUTES} minutes`, () => snooze(id, SNOOZE_MINUTES))}
        >
          Snooze {SNOOZE_MINUTES} min
        </button>
      )}
    </div>
  );
}
