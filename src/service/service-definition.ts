/**
 * The files that make the broker run by itself: a systemd user unit (Linux) and a launchd agent
 * (macOS). Pure text from absolute paths, so the same node and checkout that installed it run it.
 */
export interface ServiceTarget {
  /** Absolute path of the node binary (process.execPath). */
  node: string;
  /** Absolute path of dist/src/cli/notifyd.js in this checkout. */
  notifyd: string;
  /** Absolute path of docs/service.md, for `systemctl status` readers. */
  docs: string;
}

export const SYSTEMD_UNIT_NAME = 'notifyd.service';
export const LAUNCHD_LABEL = 'dev.notify.notifyd';

/** systemd quotes arguments with double quotes; a path with spaces or quotes stays one argument. */
function systemdQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function systemdUnit(target: ServiceTarget): string {
  return [
    '[Unit]',
    'Description=Notify, the local attention broker for software agents',
    `Documentation=file://${encodeURI(target.docs)}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${systemdQuote(target.node)} ${systemdQuote(target.notifyd)}`,
    // notifyd stops cleanly on SIGTERM with exit 0; anything else is a failure worth a restart.
    'Restart=on-failure',
    'RestartSec=2',
    'TimeoutStopSec=15',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchdPlist(target: ServiceTarget, logFile: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
    <string>${xmlEscape(target.node)}</string>
    <string>${xmlEscape(target.notifyd)}</string>
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>StandardErrorPath</key>
  <string>${xmlEscape(logFile)}</string>
</dict>
</plist>
`;
}
