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
  /** The port NOTIFY_PORT moved the broker to at install, given to notifyd as `--port`. */
  port?: number;
}

/** The port a service definition gives notifyd (`--port N`), or undefined: config.json's. */
export function definitionPort(definition: string): number | undefined {
  const match = /--port(?:<\/string>\s*<string>| )([0-9]{1,5})\b/.exec(definition);
  return match ? Number(match[1]) : undefined;
}

export const SYSTEMD_UNIT_NAME = 'notifyd.service';
export const LAUNCHD_LABEL = 'dev.notify.notifyd';

/**
 * One argument of ExecStart, per systemd.syntax(7) and systemd.service(5): `%` starts a specifier and
 * `$` a variable, so both are doubled; a path with anything but plain characters is double-quoted with
 * `\\` and `"` escaped, so spaces and quotes keep it one argument.
 */
function systemdArgument(path: string): string {
  const literal = path.replace(/[%$]/g, (character) => character + character);
  return /^[\w@+=:,./-]+$/.test(path)
    ? literal
    : `"${literal.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/**
 * The program of ExecStart: specifiers are resolved in it but variables are not, and systemd refuses
 * one holding quotes or a backslash (servicePathProblem keeps those out).
 */
function systemdExecutable(path: string): string {
  const literal = path.replace(/%/g, '%%');
  return /^[\w@%+=:,./-]+$/.test(path) ? literal : `"${literal}"`;
}

/**
 * A path a service definition cannot carry: a control character (a newline would end the line and
 * start another setting), or for systemd a quote or backslash in the program's path, which it refuses
 * to run. Said with the path, so the person knows what to move.
 */
export function servicePathProblem(target: ServiceTarget, platform: NodeJS.Platform): string | undefined {
  for (const [what, path] of [
    ['node', target.node],
    ['this Notify checkout', target.notifyd],
  ] as const) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(path)) {
      return `the path of ${what} holds a control character (such as a newline), which a service definition cannot carry: ${JSON.stringify(path)}. Move it to a path without one and run this again.`;
    }
  }
  if (platform === 'linux' && /["'\\]/.test(target.node)) {
    return `the path of node holds a quote or a backslash, which systemd refuses in the program it runs: ${JSON.stringify(target.node)}. Install or link node at a path without one and run this again with that node.`;
  }
  return undefined;
}

export function systemdUnit(target: ServiceTarget): string {
  return [
    '[Unit]',
    'Description=Notify, the local attention broker for software agents',
    `Documentation=file://${encodeURI(target.docs).replace(/%/g, '%%')}`,
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${systemdExecutable(target.node)} ${systemdArgument(target.notifyd)}${target.port === undefined ? '' : ` --port ${target.port}`}`,
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
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

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
    <string>${xmlEscape(target.notifyd)}</string>${
      target.port === undefined
        ? ''
        : `
    <string>--port</string>
    <string>${target.port}</string>`
    }
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
