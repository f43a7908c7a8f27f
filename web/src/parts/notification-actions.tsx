import type { NotificationDto } from '../api-types.js';
import type { Feedback } from './feedback.js';
import { useInboxApi } from './inbox-api.js';

interface Props {
  notification: NotificationDto;
  feedback: Feedback;
  /** Told the notification as the broker has it after the change. */
  changed: (notification: NotificationDto) => void;
}

/** The answers a notification offers, then resolve and dismiss; nothing once it is no longer active. */
export function NotificationActions({ notification, feedback, changed }: Props) {
  const api = useInboxApi();
  if (notification.status !== 'active') return null;
  const { id, title } = notification;
  const act = (label: string, action: () => Promise<NotificationDto>) => () =>
    feedback.run(async () => {
      const after = await action();
      changed(after);
      return `${label}: ${title}`;
    });
  return (
    <div class="actions" role="group" aria-label={`What to do with: ${title}`}>
      {notification.actions?.map((choice) => (
        <button
          key={choice.id}
          class="answer"
          type="button"
          aria-label={`Answer ${choice.label}: ${title}`}
          onClick={act(`Answered ${choice.label}`, () => api.answer(id, choice.id))}
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
    </div>
  );
}
