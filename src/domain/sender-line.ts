/** Who sent a notification, as the toast shows it and every provider's text repeats it: `agent · project`. */
export function senderLine(notification: { agent: string; project?: string | undefined }): string {
  return notification.project ? `${notification.agent} · ${notification.project}` : notification.agent;
}
