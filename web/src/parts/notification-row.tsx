import { showControls as shown } from '../../../src/domain/display-controls.js';
import type { NotificationDto } from '../api-types.js';
import { age, when } from './format.js';
import type { Feedback } from './feedback.js';
import type { InboxNotification } from './inbox-api.js';
import { NotificationActions } from './notification-actions.js';

interface Props {
  notification: InboxNotification;
  feedback: Feedback;
  changed: (notification: NotificationDto) => void;
  /** Whether the title opens the notification's own page (the broker's page has one, the relay not). */
  linked?: boolean;
}

/** The answer in the words its button had, when the notification still says. */
function answerLabel(n: NotificationDto, action: string): string {
  return shown(n.actions?.find((choice) => choice.id === action)?.label ?? action);
}

/**
 * One notification in a list: what it is, who sent it, how urgent, how old, and what to do. Its texts
 * show direction and invisible characters as `⟨U+202E⟩`, so they read as they run.
 */
export function NotificationRow({ notification, feedback, changed, linked = true }: Props) {
  const n = notification;
  return (
    <li class={`notification priority-${n.priority} status-${n.status}`} data-id={n.id}>
      <div class="head">
        {linked ? (
          <a class="title" href={`#/n/${encodeURIComponent(n.id)}`}>
            {shown(n.title)}
          </a>
        ) : (
          <strong class="title">{shown(n.title)}</strong>
        )}
        <time dateTime={n.createdAt} title={when(n.createdAt)}>
          <span class="sr-only">age </span>
          {age(n.createdAt)}
        </time>
      </div>
      {n.message && <p class="message">{shown(n.message)}</p>}
      <dl class="facts">
        <dt>Agent</dt>
        <dd>{shown(n.raisedBy ? `${n.raisedBy} · ${n.agent}` : n.agent)}</dd>
        {n.project && (
          <>
            <dt>Project</dt>
            <dd>{shown(n.project)}</dd>
          </>
        )}
        {n.sender && (
          <>
            <dt>Sender</dt>
            <dd>{shown(n.sender)}</dd>
          </>
        )}
        <dt>Type</dt>
        <dd>{n.type}</dd>
        {n.status === 'active' && n.snoozedUntil && (
          <>
            <dt>Snoozed until</dt>
            <dd>{when(n.snoozedUntil)}</dd>
          </>
        )}
        <dt>Priority</dt>
        <dd class="priority">{n.priority}</dd>
        {n.status !== 'active' && (
          <>
            <dt>Status</dt>
            <dd>{n.answer ? `answered ${answerLabel(n, n.answer.action)}` : n.status}</dd>
          </>
        )}
      </dl>
      <NotificationActions notification={n} feedback={feedback} changed={changed} />
    </li>
  );
}
