import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { browserName } from '../../../src/domain/browser-name.js';
import { when } from '../parts/format.js';
import { useLoad } from '../parts/use-load.js';

/** The browsers signed in to this broker; revoke any, or sign this one out. */
export function Sessions() {
  const api = useApi();
  const feedback = useFeedback();
  const sessions = useLoad(() => api.sessions());
  return (
    <section aria-labelledby="sessions-heading">
      <h1 id="sessions-heading">Sessions</h1>
      {feedback.view}
      <LoadError error={sessions.error} />
      <ul class="plain cards">
        {sessions.data?.map((session) => (
          <li key={session.id} class="card">
            <h2 title={session.userAgent ?? undefined}>
              {browserName(session.userAgent)} {session.current && <span class="tag">this one</span>}
            </h2>
            <dl class="facts">
              <dt>Signed in</dt>
              <dd>{when(session.createdAt)}</dd>
              <dt>Last seen</dt>
              <dd>{when(session.lastSeenAt)}</dd>
              <dt>Expires</dt>
              <dd>{when(session.expiresAt)}</dd>
            </dl>
            <button
              type="button"
              onClick={() =>
                feedback.run(async () => {
                  if (session.current) {
                    await api.logout();
                    location.reload();
                    return;
                  }
                  await api.revokeSession(session.id);
                  sessions.reload();
                  return 'Session revoked.';
                })
              }
            >
              {session.current ? 'Sign out' : 'Revoke'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
