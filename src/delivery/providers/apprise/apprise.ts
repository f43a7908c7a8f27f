import { spawn } from 'node:child_process';
import type {
  DeliveryResult,
  OutboundNotification,
  ProviderKind,
  SettingDeclaration,
} from '../../provider.js';
import { bodyText } from '../../body-text.js';
import { requiredString } from '../../setting-values.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'string',
    required: true,
    secret: true,
    help: 'One or more Apprise URLs separated by spaces, e.g. tgram://bottoken/ChatID (see the Apprise wiki for each service).',
  },
];

/** Apprise's four notification types, which pick its icons and colours. */
function appriseType(type: string): string {
  if (type === 'success' || type === 'completed') return 'success';
  if (type === 'error') return 'failure';
  if (
    type === 'warning' ||
    type === 'blocked' ||
    type === 'permission_required' ||
    type === 'input_required'
  ) {
    return 'warning';
  }
  return 'info';
}

/** Title in argv (it is not secret), the body on stdin, the URL in the environment (owner-readable only). */
function invocation(n: OutboundNotification): { args: string[]; stdin: string } {
  const args = ['--notification-type', appriseType(n.type), '--input-format', 'text'];
  return { args: [...args, '--title', n.title], stdin: bodyText(n) };
}

/**
 * Apprise exits 0 when every service took the message, 1 when one failed (it does not say whether for
 * good, so that is retried) or when no URL could be parsed (said in its log, which is never passed on:
 * it repeats the URL), and 2 on a usage error. Apprise logs to stdout, so both streams are read.
 */
function classifyExit(code: number | null, output: string): DeliveryResult {
  if (code === 0) return { outcome: 'delivered' };
  if (/Unparseable URL|Unsupported URL|You must specify at least one server URL/.test(output)) {
    return { outcome: 'reject', reason: 'apprise_invalid_url' };
  }
  if (code === 2) return { outcome: 'reject', reason: 'apprise_usage_error' };
  return { outcome: 'retry', reason: code === null ? 'apprise_killed' : `apprise_exit_${code}` };
}

export function runApprise(
  url: string,
  n: OutboundNotification,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const { args, stdin } = invocation(n);
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, APPRISE_URLS: url };
    delete env.APPRISE_CONFIG;
    const child = spawn('apprise', args, { env, signal, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 16_384) output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.stdin.on('error', () => undefined);
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolve({ outcome: 'reject', reason: 'apprise_not_installed' });
      else resolve({ outcome: 'retry', reason: signal.aborted ? 'timeout' : 'apprise_failed_to_start' });
    });
    child.once('close', (code) => {
      resolve(signal.aborted ? { outcome: 'retry', reason: 'timeout' } : classifyExit(code, output));
    });
    child.stdin.end(stdin);
  });
}

export const apprise: ProviderKind = {
  id: 'apprise',
  title: 'Apprise',
  description:
    'Any of the 100+ services Apprise speaks (Telegram, Discord, Pushover, ...), through the apprise command.',
  settings: SETTINGS,
  lifecycle: { update: false, clear: false },
  async deliver(operation, { settings, signal }) {
    if (signal.aborted) return { outcome: 'retry', reason: 'timeout' };
    return runApprise(requiredString(settings, 'url'), operation.notification, signal);
  },
};
