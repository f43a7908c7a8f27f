interface Sender {
  agent: string;
  project?: string | undefined;
  /** The agent token's name (the machine it runs on), when one raised it. */
  raisedBy?: string | undefined;
}

/** The agent, after the name of the agent token that raised it: `api-box · claude-code`. */
export function agentLabel(notification: Omit<Sender, 'project'>): string {
  return notification.raisedBy ? `${notification.raisedBy} · ${notification.agent}` : notification.agent;
}

/**
 * Who sent a notification, as the toast shows it and every provider's text repeats it:
 * `agent · project`, after the agent token's name when one raised it (`api-box · claude-code · shop`).
 */
export function senderLine(notification: Sender): string {
  const agent = agentLabel(notification);
  return notification.project ? `${agent} · ${notification.project}` : agent;
}
