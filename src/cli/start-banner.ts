import type { PortSource } from '../config/broker-port.js';
import type { NotifyPaths } from '../config/paths.js';
import type { PartStatus, PresentationReport } from '../presentation/presentation-status.js';
import { readClientConfig } from './notify/client-config.js';

export interface BannerFacts {
  port: number;
  /** The Unix socket it also listens on, if any. */
  socketPath?: string;
  paths: NotifyPaths;
  /** Set when --port or NOTIFY_PORT chose the port instead of config.json. */
  portSource?: Exclude<PortSource, 'config'>;
  presentation: PresentationReport;
}

/** What notifyd prints once it listens: where it listens, where its files are, how to stop it. */
export function startBanner(facts: BannerFacts): string {
  return [
    `Notify listening on http://127.0.0.1:${facts.port}`,
    ...portLine(facts),
    `  config:   ${facts.paths.configFile}`,
    `  logs:     ${facts.paths.logDir}`,
    `  database: ${facts.paths.databaseFile}`,
    ...(facts.socketPath === undefined ? [] : [`  socket:   ${facts.socketPath}`]),
    ...presentationLines(facts.presentation),
    'Ctrl+C stops it.',
  ].join('\n');
}

/**
 * Clients find the broker through --port, NOTIFY_PORT or config.json: when the port came from the
 * broker's flag or environment and config.json names another, a client started elsewhere would miss it.
 */
function portLine({ port, paths, portSource }: BannerFacts): string[] {
  if (portSource === undefined) return [];
  const read = readClientConfig(paths.configFile);
  const filePort = (read.state === 'found' ? read.config.port : undefined) ?? port;
  const origin = portSource === 'flag' ? '--port' : 'NOTIFY_PORT';
  if (filePort === port) return [];
  return [
    `  port:     ${port} (from ${origin}; config.json says ${filePort}, so give clients --port ${port} or NOTIFY_PORT=${port})`,
  ];
}

/**
 * One line each for toasts, the tray icon and sounds, on or off and why: over SSH or in a plain
 * terminal the reason would otherwise be only in the log.
 */
export function presentationLines(report: PresentationReport): string[] {
  const line = (label: string, part: PartStatus) =>
    `  ${`${label}:`.padEnd(9)} ${part.on ? 'on,' : 'off:'} ${part.detail}`;
  return [line('toasts', report.toasts), line('tray', report.tray), line('sounds', report.sounds)];
}
