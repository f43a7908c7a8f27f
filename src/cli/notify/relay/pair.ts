import { hostname } from 'node:os';
import { RelayNetworkError, type RelayReply } from '../../../client/relay-transport.js';
import {
  readInstallation,
  readPairing,
  readPollAnswer,
  readWellKnown,
  RELAY_API_VERSION,
  type Installation,
  type Pairing,
  type PollAnswer,
} from '../../../domain/relay/relay-protocol.js';
import { neutralize } from '../../../domain/neutralize.js';
import { parseRelayUrl, sameOrigin } from '../../../domain/relay/relay-url.js';
import { VERSION } from '../../../version.js';
import { CONNECTION_FLAGS, optionText, parseArgs } from '../args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../connection.js';
import { CliError } from '../failure.js';
import { withHints } from '../hints.js';
import { PairingReport } from './pairing-report.js';
import { PROCESS_IO, type RelayIo } from './relay-io.js';
import { describeReply, RelaySession } from './relay-session.js';
import { listRelayProfiles, profileFor, saveRelayProfile } from './relay-profiles.js';
import { characterCount } from '../../../domain/text.js';

/** Spec "Limits": a relay profile name has at most 100 characters; the relay takes sender names as long. */
const NAME_MAX = 100;
/** Spec: four consecutive transient network failures are tolerated; the fifth ends the pairing. */
const MAX_CONSECUTIVE_FAILURES = 5;
/** RFC 8628 §3.5 and docs/relay-protocol.md: slow_down adds 5 seconds to the interval from then on. */
const SLOW_DOWN_STEP_S = 5;

const FLAGS = {
  ...CONNECTION_FLAGS,
  '--url': { kind: 'value', name: 'url' },
  '--name': { kind: 'value', name: 'name' },
  '--sender-name': { kind: 'value', name: 'sender-name' },
  '--allow-private': { kind: 'switch', name: 'allow-private' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

class Cancelled extends Error {
  override name = 'Cancelled';
}

/** `notify relay pair` (spec "Client command"): pair, verify, store; Ctrl+C cancels cleanly. */
export async function runPair(argv: string[], io: RelayIo = PROCESS_IO): Promise<void> {
  const parsed = parseArgs(
    argv,
    FLAGS,
    (flag) => `unknown option '${flag}' for relay pair. Run 'notify help relay'.`,
  );
  if (parsed.positionals.length > 0) {
    throw new CliError(
      `unexpected argument '${parsed.positionals[0]}' for relay pair. Run 'notify help relay'.`,
    );
  }
  const urlText = optionText(parsed, 'url');
  if (urlText === undefined)
    throw new CliError(
      'relay pair requires --url <url>. Usage: notify relay pair --url https://relay.example.com.',
    );
  const allowPrivate = parsed.options.get('allow-private') === true;
  const parsedUrl = parseRelayUrl(urlText, allowPrivate);
  if (!parsedUrl.ok) throw new CliError(parsedUrl.problem);
  const nameGiven = optionText(parsed, 'name');
  if (nameGiven !== undefined) checkName(nameGiven, '--name');
  const senderName = optionText(parsed, 'sender-name') ?? cut(hostname(), NAME_MAX);
  checkName(senderName, '--sender-name');

  const report = new PairingReport(parsed.options.get('json') === true, io);
  const connection = resolveConnection(parsed, io.env);
  warnWhenTokenless(connection, (text) => io.printError(text));
  const client = createClient(connection);
  // The broker first: a credential the relay hands out is never printed, so it must have a home.
  const profiles = await withHints(connection, () => listRelayProfiles(client));

  const cancel = new AbortController();
  const onSigint = () => cancel.abort(new Cancelled('cancelled'));
  process.on('SIGINT', onSigint);
  try {
    const session = await RelaySession.open(parsedUrl.value, allowPrivate, cancel.signal);
    const relayName = await checkWellKnown(session);
    const pairing = await createPairing(session, senderName);
    const expiresAt = Date.now() + pairing.expiresIn * 1000;
    report.transition(
      {
        state: 'awaiting_approval',
        relay: { name: relayName, url: session.url.base },
        user_code: pairing.userCode,
        verification_uri: neutralize(pairing.verificationUri),
        ...(pairing.verificationUriComplete !== undefined && {
          verification_uri_complete: neutralize(pairing.verificationUriComplete),
        }),
        expires_at: new Date(expiresAt).toISOString(),
        interval: pairing.interval,
      },
      `To pair this machine with "${relayName}", open this page and approve:`,
      `  ${neutralize(pairing.verificationUriComplete ?? pairing.verificationUri)}`,
      `Code: ${pairing.userCode} (check that the page shows it, or enter it at ${neutralize(pairing.verificationUri)})`,
    );
    report.startCountdown(expiresAt);
    const approved = await pollUntilDecided(session, pairing, expiresAt, report, cancel.signal);
    report.stopCountdown();
    report.transition({ state: 'approved', installation: approved.installation });
    const installation = await verifyInstallation(session, approved, report, cancel.signal);
    const profileName = nameGiven?.trim() ?? cut(relayName.trim(), NAME_MAX);
    const saved = await storeProfile(() =>
      saveRelayProfile(client, profileFor(profiles, session.url.base), {
        url: session.url.base,
        credential: approved.credential,
        allowPrivate,
        name: profileName,
        nameGiven: nameGiven !== undefined,
      }),
    );
    const state = saved.profile.enabled ? 'enabled' : 'disabled';
    report.transition(
      {
        state: 'saved',
        created: saved.created,
        profile: {
          id: saved.profile.id,
          name: saved.profile.name,
          url: saved.profile.url,
          enabled: saved.profile.enabled,
        },
        installation,
      },
      `Paired with "${relayName}" as installation "${installation.name}" (${installation.id})${installation.owner === undefined ? '' : `, approved by ${installation.owner}`}.`,
      `${saved.created ? 'Saved the new' : 'Updated the'} relay profile "${saved.profile.name}" (${saved.profile.id}, ${state}).`,
    );
    if (!saved.profile.enabled) {
      report.note(
        `Hint: nothing is sent to the relay until you enable the profile and a route to it: notifyctl providers enable ${saved.profile.id}; notifyctl routes add --provider ${saved.profile.id}; notifyctl routes enable <route-id>.`,
      );
    }
  } catch (error) {
    report.stopCountdown();
    if (error instanceof Cancelled || cancel.signal.aborted) {
      report.transition({ state: 'cancelled' });
      throw new CliError('Pairing cancelled; nothing was saved.');
    }
    if (error instanceof Ended) {
      report.transition({ state: error.state });
      throw new CliError(error.message);
    }
    report.transition({ state: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The pairing ended on the relay's word (rejected, expired, consumed, refused auth). */
class Ended extends CliError {
  constructor(
    readonly state: string,
    message: string,
  ) {
    super(message);
  }
}

async function checkWellKnown(session: RelaySession): Promise<string> {
  const path = '/.well-known/notify-relay';
  const reply = await once(session, () => session.call('GET', path));
  if (reply.status !== 200) {
    throw new CliError(`${session.url.base} is not a Notify relay: ${describeReply('GET', path, reply)}.`);
  }
  const document = readWellKnown(reply.json);
  if (document === undefined) {
    throw new CliError(
      `${session.url.base} is not a Notify relay: GET ${path} did not return a notify-relay document (service, name, api_versions).`,
    );
  }
  if (!document.apiVersions.includes(RELAY_API_VERSION)) {
    throw new CliError(
      `The relay at ${session.url.base} speaks API ${document.apiVersions.join(', ') || '(none)'}, and this notify speaks ${RELAY_API_VERSION}; update the one that is older.`,
    );
  }
  return document.name;
}

async function createPairing(session: RelaySession, senderName: string): Promise<Pairing> {
  const path = '/v1/pairings';
  const reply = await once(session, () =>
    session.call('POST', path, { body: { sender_name: senderName, client: `notify/${VERSION}` } }),
  );
  if (reply.status === 429) {
    throw new CliError(
      `The relay refused a new pairing for now (${describeReply('POST', path, reply)}); try again${reply.retryAfter === undefined ? ' later' : ` in ${reply.retryAfter} s`}.`,
    );
  }
  if (reply.status !== 201 && reply.status !== 200) {
    throw new CliError(`The relay did not start a pairing: ${describeReply('POST', path, reply)}.`);
  }
  const pairing = readPairing(reply.json);
  if (pairing === undefined)
    throw new CliError(`The relay's answer to POST ${path} is not a pairing request.`);
  for (const uri of [pairing.verificationUri, pairing.verificationUriComplete]) {
    if (uri !== undefined && !sameOrigin(uri, session.url.origin)) {
      throw new CliError(
        `The relay sent a verification URL on another origin than ${session.url.origin}; not showing it, since approving there could hand this machine to someone else.`,
      );
    }
  }
  return pairing;
}

/**
 * Polls at the pairing's interval until the relay decides. slow_down adds 5 s for good; 429 waits as
 * Retry-After says; up to four transient failures in a row are ridden out, the fifth ends it.
 */
async function pollUntilDecided(
  session: RelaySession,
  pairing: Pairing,
  expiresAt: number,
  report: PairingReport,
  signal: AbortSignal,
): Promise<Extract<PollAnswer, { status: 'approved' }>> {
  const path = `/v1/pairings/${encodeURIComponent(pairing.pairingId)}/poll`;
  let interval = pairing.interval;
  let failures = 0;
  let wait = interval;
  for (;;) {
    if (Date.now() + wait * 1000 > expiresAt + interval * 1000) {
      throw new Ended(
        'expired',
        'The pairing code expired before it was approved; run notify relay pair again.',
      );
    }
    await sleep(wait * 1000, signal);
    wait = interval;
    let reply: RelayReply;
    try {
      reply = await session.call('POST', path, { bearer: pairing.pollSecret });
    } catch (error) {
      if (!(error instanceof RelayNetworkError)) throw error;
      failures = transientFailure(failures, error.message, report);
      continue;
    }
    if (reply.status === 429) {
      wait = Math.max(interval, Number(reply.retryAfter) || interval);
      continue;
    }
    if (reply.status >= 500) {
      failures = transientFailure(failures, describeReply('POST', path, reply), report);
      continue;
    }
    if (reply.status === 401) {
      throw new Ended(
        'invalid_auth',
        'The relay no longer accepts this pairing (invalid_auth); run notify relay pair again.',
      );
    }
    const answer = reply.status === 200 ? readPollAnswer(reply.json) : undefined;
    if (answer === undefined) {
      throw new CliError(
        `The relay answered the poll in a way Notify does not understand: ${describeReply('POST', path, reply)}.`,
      );
    }
    if (failures > 0) report.transition({ state: 'awaiting_approval', user_code: pairing.userCode });
    failures = 0;
    switch (answer.status) {
      case 'pending':
        break;
      case 'slow_down':
        interval += SLOW_DOWN_STEP_S;
        wait = interval;
        report.transition({ state: 'slow_down', interval });
        break;
      case 'approved':
        return answer;
      case 'rejected':
        throw new Ended('rejected', 'The pairing was rejected on the relay; nothing was saved.');
      case 'expired':
        throw new Ended(
          'expired',
          'The pairing code expired before it was approved; run notify relay pair again.',
        );
      case 'consumed':
        throw new Ended(
          'consumed',
          'The relay says this pairing was already collected by another poll; nothing was saved here. Revoke that installation on the relay and pair again.',
        );
    }
  }
}

function transientFailure(failures: number, detail: string, report: PairingReport): number {
  const count = failures + 1;
  if (count >= MAX_CONSECUTIVE_FAILURES) {
    throw new CliError(
      `Gave up: the relay could not be reached ${count} times in a row (last: ${detail}); nothing was saved.`,
    );
  }
  report.transition({ state: 'unreachable', failures: count, error: detail });
  if (!report.json) report.note(`The relay could not be reached (${detail}); trying again.`);
  return count;
}

/** The credential works and names the installation just approved. */
async function verifyInstallation(
  session: RelaySession,
  approved: Extract<PollAnswer, { status: 'approved' }>,
  report: PairingReport,
  signal: AbortSignal,
): Promise<Installation> {
  const path = '/v1/installation';
  let failures = 0;
  for (;;) {
    let reply: RelayReply;
    try {
      reply = await session.call('GET', path, { bearer: approved.credential });
    } catch (error) {
      if (!(error instanceof RelayNetworkError)) throw error;
      failures = transientFailure(failures, error.message, report);
      await sleep(1000 * failures, signal);
      continue;
    }
    if (reply.status >= 500) {
      failures = transientFailure(failures, describeReply('GET', path, reply), report);
      await sleep(1000 * failures, signal);
      continue;
    }
    const installation = reply.status === 200 ? readInstallation(reply.json) : undefined;
    if (installation === undefined || installation.id !== approved.installation.id) {
      throw new CliError(
        `The relay approved the pairing but does not confirm the installation (${describeReply('GET', path, reply)}); nothing was saved. Pair again.`,
      );
    }
    return installation;
  }
}

/** The one step that may not fail quietly: the relay has approved, and only the broker can keep the credential. */
async function storeProfile<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      `The relay approved this machine, but Notify could not save the relay profile (${reason}). Revoke the new installation on the relay's page and pair again once Notify runs.`,
    );
  }
}

/** A step before polling: one network failure ends it, in words that say where. */
async function once(session: RelaySession, call: () => Promise<RelayReply>): Promise<RelayReply> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof RelayNetworkError)) throw error;
    throw new CliError(`Could not reach the relay at ${session.url.base}: ${error.message}`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Names are measured as the broker (a provider's name) and the relay (`sender_name`) measure them, in
 * characters (code points, an emoji is one): a name they would refuse is refused here, before the relay
 * approves an installation whose profile the broker then could not save.
 */
function checkName(name: string, flag: string): void {
  const trimmed = name.trim();
  if (trimmed === '' || characterCount(trimmed) > NAME_MAX) {
    throw new CliError(`${flag} must be 1-${NAME_MAX} characters.`);
  }
}

/** At most `max` characters (as checkName counts), never ending in half a character. */
function cut(text: string, max: number): string {
  return [...text].slice(0, max).join('');
}
