import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForeignListenerError, HttpError } from '../../client/errors.js';
import { NotifyClient } from '../../client/notify-client.js';
import { readClientConfig } from '../notify/client-config.js';
import { resolvePaths } from '../../config/paths.js';
import { onPath, playersFor, runPlayer } from '../../presentation/sound-player.js';
import type { PresentationReport } from '../../presentation/presentation-status.js';
import { definitionPort } from '../../service/service-definition.js';
import { readDefinition, type ServiceManager } from '../../service/service-manager.js';
import { portInForce, portWords } from './port-in-force.js';
import type { DoctorLineName } from './doctor-lines.js';

export type Verdict = 'ok' | 'warn' | 'fail';

/** One line of `notifyctl doctor`: what was checked, how it went, and what to do when it did not. */
export interface Finding {
  name: DoctorLineName;
  verdict: Verdict;
  text: string;
}

export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  /** The broker's address and the token a client would use (flags, environment, config). */
  baseUrl: string;
  token?: string;
  service?: ServiceManager;
}

export async function checkConfig(context: DoctorContext): Promise<Finding> {
  const file = resolvePaths(context.env).configFile;
  const read = readClientConfig(file);
  if (read.state === 'missing') {
    return {
      name: 'config',
      verdict: 'fail',
      text: `${file} does not exist yet; start Notify once (notifyd) to create it`,
    };
  }
  if (read.state === 'unreadable') {
    return {
      name: 'config',
      verdict: 'fail',
      text: `${read.problem}; fix it or move it away, then start Notify again`,
    };
  }
  if (read.config.authToken === undefined) {
    return {
      name: 'config',
      verdict: 'fail',
      text: `${file} holds no authToken; start Notify once to generate one`,
    };
  }
  return { name: 'config', verdict: 'ok', text: `${file} is valid and holds a token` };
}

export async function checkBroker(context: DoctorContext): Promise<Finding[]> {
  const anonymous = new NotifyClient({ baseUrl: context.baseUrl, timeoutMs: 3000 });
  try {
    await anonymous.liveness();
  } catch (error) {
    if (error instanceof ForeignListenerError) return [foreignListenerFinding(error)];
    return [
      {
        name: 'broker',
        verdict: 'fail',
        text: `nothing answers at ${context.baseUrl} (${(error as Error).message}); start it with 'notifyd' or 'notifyctl service install'`,
      },
    ];
  }
  const client = new NotifyClient({
    baseUrl: context.baseUrl,
    timeoutMs: 3000,
    ...(context.token !== undefined && { token: context.token }),
  });
  try {
    const health = await client.health();
    return [
      { name: 'broker', verdict: 'ok', text: `Notify ${health.version} answers at ${context.baseUrl}` },
      { name: 'token', verdict: 'ok', text: `the broker accepts the token (${health.activeCount} active)` },
    ];
  } catch (error) {
    const refused = error instanceof HttpError && error.status === 401;
    return [
      { name: 'broker', verdict: 'ok', text: `Notify answers at ${context.baseUrl}` },
      {
        name: 'token',
        verdict: 'fail',
        text: refused
          ? "the broker refuses the token; unset NOTIFY_TOKEN or --token, or compare with 'notify token'"
          : `the token check failed: ${(error as Error).message}`,
      },
    ];
  }
}

/** The client refused the port's listener before it sent anything: say so rather than "nothing answers". */
function foreignListenerFinding(error: ForeignListenerError): Finding {
  const who =
    error.ownerUid === undefined
      ? `the owner of the program listening at ${error.baseUrl} cannot be found`
      : `the program listening at ${error.baseUrl} belongs to another user (uid ${error.ownerUid})`;
  return {
    name: 'broker',
    verdict: 'fail',
    text: `${who}, so nothing was sent to it; stop it, or run notifyd on another port ("port" in config.json)`,
  };
}

/**
 * Toasts, tray and sounds as the running broker sees them (`GET /v1/presentation`): it may run as a
 * service, with another environment than this shell. Undefined when it cannot be asked.
 */
export async function checkPresentation(context: DoctorContext): Promise<Finding[] | undefined> {
  const client = new NotifyClient({
    baseUrl: context.baseUrl,
    timeoutMs: 3000,
    ...(context.token !== undefined && { token: context.token }),
  });
  let report: PresentationReport;
  try {
    report = await client.request<PresentationReport>('GET', '/v1/presentation');
  } catch {
    return undefined;
  }
  const parts = [
    ['toasts', report.toasts],
    ['tray', report.tray],
    ['sounds', report.sounds],
  ] as const;
  return parts.map(([name, part]) => ({
    name,
    verdict: part.on ? 'ok' : 'warn',
    text: part.detail,
  }));
}

/** GetServerInformation on the session bus, through dbus-send with an argument array. */
export async function checkDesktop(context: DoctorContext): Promise<Finding> {
  if (!context.env['DBUS_SESSION_BUS_ADDRESS']) {
    return {
      name: 'desktop',
      verdict: 'warn',
      text: 'no session bus (DBUS_SESSION_BUS_ADDRESS is not set): toasts and sounds are off; run Notify inside your desktop session',
    };
  }
  const reply = await run(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--reply-timeout=2000',
      '--dest=org.freedesktop.Notifications',
      '/org/freedesktop/Notifications',
      'org.freedesktop.Notifications.GetServerInformation',
    ],
    context.env,
  );
  if (reply === undefined) {
    return {
      name: 'desktop',
      verdict: 'warn',
      text: 'no notification server answers on the session bus: toasts are off; start one (your desktop, dunst, mako)',
    };
  }
  const [name, , version] = [...reply.matchAll(/string "([^"]*)"/g)].map((match) => match[1]);
  return {
    name: 'desktop',
    verdict: 'ok',
    text: `toasts go to ${name ?? 'a notification server'} ${version ?? ''}`.trimEnd(),
  };
}

/**
 * The players the broker itself would try, in its order (src/presentation/sound-player.ts); the first
 * found plays a twentieth of a second of silence, as the broker would play a tone: installed is not
 * working (paplay without a sound server exits 1).
 */
export async function checkSound(context: DoctorContext): Promise<Finding> {
  const players = playersFor(process.platform);
  const player = players.find(({ program }) => onPath(program, context.env['PATH']));
  if (!player)
    return {
      name: 'sound',
      verdict: 'warn',
      text: `no sound player found (${players.map(({ program }) => program).join(', ')}); install pipewire-bin or pulseaudio-utils for sounds`,
    };
  const folder = mkdtempSync(join(tmpdir(), 'notify-doctor-'));
  try {
    const silence = join(folder, 'silence.wav');
    writeFileSync(silence, silentWav());
    const outcome = await runPlayer(player, silence, context.env);
    return outcome.played
      ? { name: 'sound', verdict: 'ok', text: `sounds play through ${player.program}` }
      : {
          name: 'sound',
          verdict: 'warn',
          text: `${player.program} ${outcome.failure}, so sounds do not play; is a sound server (PipeWire or PulseAudio) running in this session?`,
        };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** 50 ms of silence as a WAV file: 8 kHz, 16-bit mono PCM. */
function silentWav(): Buffer {
  const samples = 400;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}

export async function checkService(context: DoctorContext): Promise<Finding> {
  const service = context.service;
  if (!service)
    return {
      name: 'service',
      verdict: 'warn',
      text: 'no service manager on this platform; start notifyd at login yourself',
    };
  if (readDefinition(service.file) === undefined) {
    return {
      name: 'service',
      verdict: 'warn',
      text: "not installed; 'notifyctl service install' starts Notify at login",
    };
  }
  const state = (await service.available()) ? await service.state() : 'state unknown in this session';
  const installedPort = definitionPort(readDefinition(service.file)!);
  const port = portInForce(context.env);
  if (installedPort !== port) {
    return {
      name: 'service',
      verdict: 'warn',
      text: `installed (${state}) for ${portWords(installedPort)}, but this shell reaches the broker on ${portWords(port)}${port === undefined ? '' : ' (NOTIFY_PORT)'}; run 'notifyctl service install' where NOTIFY_PORT is the broker's port`,
    };
  }
  return { name: 'service', verdict: 'ok', text: `installed (${state})` };
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { env, timeout: 3000 }, (error, stdout) =>
      resolve(error ? undefined : String(stdout)),
    );
  });
}
