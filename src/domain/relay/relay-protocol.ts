/**
 * The shapes of the relay protocol (docs/relay-protocol.md, API v1) that Notify reads, checked without
 * I/O: `notify relay pair` reads discovery, pairing and polling; notifyd's relay provider reads
 * delivery answers and the event stream. A body that does not fit gives undefined: the caller names it.
 */

import { neutralize } from '../neutralize.js';

export const RELAY_API_VERSION = 'v1';
export const RELAY_SERVICE = 'notify-relay';

/** Strings a relay chose and a terminal will show (names) come out neutralized: no escape sequence survives. */
export interface WellKnown {
  name: string;
  apiVersions: string[];
}

export interface Pairing {
  pairingId: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  pollSecret: string;
  expiresIn: number;
  interval: number;
}

export interface Installation {
  id: string;
  name: string;
  /** The relay account the installation belongs to: who approved the pairing (relays since owner was added). */
  owner?: string;
}

export type PollAnswer =
  | { status: 'pending' }
  | { status: 'slow_down'; interval?: number }
  | { status: 'approved'; credential: string; installation: Installation }
  | { status: 'rejected' }
  | { status: 'expired' }
  | { status: 'consumed' };

/** The relay's state of a notification after a PUT or a status change. */
export interface DeliveredState {
  id: string;
  lifecycle: number;
}

export type RelayEvent =
  | {
      kind: 'answer';
      notificationId: string;
      lifecycle: number;
      action: string;
      /** The sender's revision the person answered; absent from a relay older than revisions. */
      revision?: number;
    }
  | { kind: 'status'; notificationId: string; lifecycle: number; status: 'resolved' | 'dismissed' };

type Json = Record<string, unknown>;

/** The document must name the service, carry a display name and list API versions. */
export function readWellKnown(body: unknown): WellKnown | undefined {
  if (!isObject(body) || body['service'] !== RELAY_SERVICE) return undefined;
  const name = text(body['name']);
  const versions = body['api_versions'];
  if (name === undefined || !Array.isArray(versions) || !versions.every((v) => typeof v === 'string'))
    return undefined;
  return { name: neutralize(name), apiVersions: (versions as string[]).map(neutralize) };
}

export function readPairing(body: unknown): Pairing | undefined {
  if (!isObject(body)) return undefined;
  const pairingId = identifier(body['pairing_id']);
  const userCode = text(body['user_code']);
  const verificationUri = text(body['verification_uri']);
  const complete = body['verification_uri_complete'];
  const pollSecret = text(body['poll_secret']);
  const expiresIn = seconds(body['expires_in']);
  const interval = seconds(body['interval']) ?? 5;
  if (
    pairingId === undefined ||
    userCode === undefined ||
    !/^[A-Z0-9]{4}-?[A-Z0-9]{4}$/i.test(userCode) ||
    verificationUri === undefined ||
    (complete !== undefined && text(complete) === undefined) ||
    pollSecret === undefined ||
    expiresIn === undefined
  )
    return undefined;
  return {
    pairingId,
    userCode,
    verificationUri,
    ...(typeof complete === 'string' && { verificationUriComplete: complete }),
    pollSecret,
    expiresIn,
    interval,
  };
}

export function readPollAnswer(body: unknown): PollAnswer | undefined {
  if (!isObject(body)) return undefined;
  switch (body['status']) {
    case 'pending':
    case 'rejected':
    case 'expired':
    case 'consumed':
      return { status: body['status'] };
    case 'slow_down': {
      const interval = seconds(body['interval']);
      return interval === undefined ? { status: 'slow_down' } : { status: 'slow_down', interval };
    }
    case 'approved': {
      const credential = text(body['credential']);
      const installation = readInstallation(body['installation']);
      if (credential === undefined || installation === undefined) return undefined;
      return { status: 'approved', credential, installation };
    }
    default:
      return undefined;
  }
}

export function readInstallation(body: unknown): Installation | undefined {
  if (!isObject(body)) return undefined;
  const id = identifier(body['id']);
  const name = text(body['name']);
  const owner = text(body['owner']);
  if (id === undefined || name === undefined) return undefined;
  return { id, name: neutralize(name), ...(owner !== undefined && { owner: neutralize(owner) }) };
}

export function readDeliveredState(body: unknown): DeliveredState | undefined {
  if (!isObject(body)) return undefined;
  const id = text(body['id']);
  const lifecycle = body['lifecycle'];
  if (id === undefined || !Number.isSafeInteger(lifecycle) || (lifecycle as number) < 1) return undefined;
  return { id, lifecycle: lifecycle as number };
}

/** One event of `GET /v1/events`; events of types Notify does not know give undefined, and are skipped. */
export function readRelayEvent(type: string | undefined, data: string): RelayEvent | undefined {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isObject(body)) return undefined;
  const notificationId = text(body['notification_id']);
  const lifecycle = body['lifecycle'];
  if (notificationId === undefined || !Number.isSafeInteger(lifecycle)) return undefined;
  if (type === 'answer') {
    const action = text(body['action']);
    const revision = body['revision'];
    if (action === undefined || (revision !== undefined && !isRevision(revision))) return undefined;
    return {
      kind: 'answer',
      notificationId,
      lifecycle: lifecycle as number,
      action,
      ...(revision !== undefined && { revision: revision as number }),
    };
  }
  if (type === 'status') {
    const status = body['status'];
    return status === 'resolved' || status === 'dismissed'
      ? { kind: 'status', notificationId, lifecycle: lifecycle as number, status }
      : undefined;
  }
  return undefined;
}

/** The relay's error code (`invalid_auth`, `rate_limited`, ...), when its body has one. */
export function relayErrorCode(body: unknown): string | undefined {
  return isObject(body) ? text(body['error']) : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function identifier(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined;
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 86_400
    ? value
    : undefined;
}

function isRevision(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}
