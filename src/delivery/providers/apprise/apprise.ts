import { spawn } from 'node:child_process';
import type {
  DeliveryResult,
  OutboundNotification,
  ProviderKind,
  SettingDeclaration,
} from '../../provider.js';
import { bodyText } from '../../body-text.js';
import { requiredString } from '../../setting-values.js';
import { dyingWithParent, onPath } from './parent-death.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'string',
    required: true,
    secret: true,
    help: 'One or more Apprise URLs separated by spaces, e.g. tgram://bottoken/ChatID (see the Apprise wiki for each service).',
    problem: appriseUrlsProblem,
  },
];

/** A comma before the next `scheme://` separates URLs, as in Apprise's own split; a comma elsewhere is part of one. */
const NEXT_URL = /,+(?=[a-z0-9]+:\/\/)/i;
/** Apprise's schema rule (2-9 letters or digits), then something after `://`. */
const APPRISE_URL = /^[a-z0-9]{2,9}:\/\/\S+$/i;

/**
 * Apprise refuses the whole run when one URL in the list does not parse, so every delivery of the
 * provider would be dead-lettered: each URL is checked when the provider is saved. The answer names
 * the URL by its place, never by its text (it holds the service's credentials).
 */
export function appriseUrlsProblem(value: string): string | undefined {
  const urls = value
    .trim()
    .split(/\s+/)
    .flatMap((word) => word.replace(/^,+|,+$/g, '').split(NEXT_URL))
    .filter((url) => url !== '');
  const bad = urls.length === 0 ? 0 : urls.findIndex((url) => !APPRISE_URL.test(url));
  if (bad === -1) return undefined;
  const which = urls.length <= 1 ? 'it is' : `URL ${bad + 1} of ${urls.length} is`;
  return `${which} not an Apprise URL: each is scheme://..., e.g. tgram://bottoken/ChatID, separated by spaces or commas`;
}

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
  const program = onPath('apprise');
  if (program === undefined) return Promise.resolve({ outcome: 'reject', reason: 'apprise_not_installed' });
  const [command, commandArgs] = dyingWithParent(program, args);
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, APPRISE_URLS: url };
    delete env.APPRISE_CONFIG;
    const child = spawn(command, commandArgs, { env, signal, stdio: ['pipe', 'pipe', 'pipe'] });
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
