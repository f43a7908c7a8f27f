/**
 * A push service stand-in for the tests, written from RFC 8030 (the push protocol), RFC 8291 (message
 * encryption, aes128gcm of RFC 8188) and RFC 8292 (VAPID): it plays the browser's side too, making each
 * subscription's key pair, checks every push's VAPID JWT against the relay's public key, decrypts the
 * payload with node:crypto (ECDH, HKDF, AES-128-GCM; nothing shared with the relay's web-push library),
 * and answers 201, or what a test asks for (404, 410, 413, 429 with Retry-After, 503).
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscription: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
  /** Its size before encryption, in bytes. */
  bytes: number;
  /** What the stand-in answered. */
  status: number;
  /** performance.now() when it arrived (benchmarks). */
  at: number;
  /** The VAPID JWT's `sub`: which relay sent it, when each process has its own --contact. */
  sender: string;
}

/** A push the stand-in took in and never answers: its sender's request stays open. */
export type HeldPush = Omit<ReceivedPush, 'status'>;

/** A push the stand-in took in and answers only when the test says so. */
export interface PausedPush {
  push: HeldPush;
  answer: () => void;
}

export interface Answer {
  status: number;
  retryAfter?: string;
}

interface Subscriber {
  id: string;
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  answers: Answer[];
}

const JSON_HEADER = { alg: 'ES256', typ: 'JWT' };

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** RFC 8292 section 3: `vapid t=<JWT>, k=<public key>`; the JWT signed with ES256 by that key. */
export function checkVapid(
  authorization: string | undefined,
  audience: string,
  expectedKey: string,
  now = Date.now(),
): string | undefined {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) return 'no vapid Authorization header';
  const [, jwt, key] = match;
  if (key !== expectedKey) return 'k is not the relay public key';
  const [header, claims, signature] = jwt!.split('.');
  if (!header || !claims || !signature) return 'malformed JWT';
  const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  if (parsedHeader['alg'] !== JSON_HEADER.alg) return 'JWT alg is not ES256';
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'JWT signature does not verify';
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
  if (parsed['aud'] !== audience) return `aud ${String(parsed['aud'])} is not ${audience}`;
  const exp = Number(parsed['exp']);
  if (!(exp * 1000 > now && exp * 1000 <= now + 24 * 3600 * 1000 + 60_000)) return 'exp outside 24 hours';
  if (typeof parsed['sub'] !== 'string' || !/^(mailto:|https:)/.test(parsed['sub'])) return 'sub missing';
  return undefined;
}

/** The `sub` claim of a VAPID Authorization header already checked by checkVapid. */
function vapidSubject(authorization: string | undefined): string {
  const claims = /^vapid t=[^.]+\.([^.]+)\./.exec(authorization ?? '')![1]!;
  return (JSON.parse(Buffer.from(claims, 'base64url').toString()) as { sub: string }).sub;
}

/** RFC 8291 + RFC 8188 (one record): the plaintext, with the padding delimiter removed. */
export function decryptAes128gcm(
  body: Buffer,
  receiver: ReturnType<typeof createECDH>,
  auth: Buffer,
): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = receiver.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record has no 0x02 delimiter');
  return padded.subarray(0, end);
}

export class PushService {
  readonly received: ReceivedPush[] = [];
  /** Pushes the stand-in refused (a bad JWT, undecryptable): each names why. */
  readonly refused: string[] = [];
  private readonly subscribers = new Map<string, Subscriber>();
  private relayKey = '';
  private count = 0;
  private hold: ((push: HeldPush) => void) | undefined;
  private pause: ((paused: PausedPush) => void) | undefined;
  private pausedAll: PausedPush[] | undefined;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<PushService> {
    const started: { service?: PushService } = {};
    const server = createServer((request, response) => {
      void started.service!.handle(request).then(
        ({ status, headers }) => response.writeHead(status, headers).end(),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    started.service = new PushService(server, `http://127.0.0.1:${port}`);
    return started.service;
  }

  /** The relay's VAPID public key (GET /v1/inbox/push/key): pushes signed by another key are refused. */
  trust(publicKey: string): void {
    this.relayKey = publicKey;
  }

  /** A new browser subscription: its endpoint here and its keys, as PushSubscription.toJSON() gives them. */
  subscribe(): PushSubscriptionJson {
    const id = `s${++this.count}-${randomBytes(6).toString('hex')}`;
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.subscribers.set(id, { id, ecdh, auth, answers: [] });
    return {
      endpoint: `${this.origin}/push/${id}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    };
  }

  /** The next answers for pushes to this subscription, in order (then 201 again). */
  answerNext(subscription: PushSubscriptionJson, ...answers: Answer[]): void {
    this.subscriber(subscription).answers.push(...answers);
  }

  /**
   * The next push (to any subscription) is read and then left unanswered, as a slow push service would:
   * the sender's request stays open. Resolves with it when it arrives; later pushes are answered again.
   */
  holdNext(): Promise<HeldPush> {
    return new Promise((resolve) => (this.hold = resolve));
  }

  /**
   * The next push (to any subscription) is read and kept waiting, as a slow push service would, until the
   * test calls its `answer()`: then it is answered like any other (the next queued answer, or 201).
   */
  pauseNext(): Promise<PausedPush> {
    return new Promise((resolve) => (this.pause = resolve));
  }

  /**
   * Every push from now on is read and kept waiting, as a push service under load would, until
   * `answerAll()`. The list fills as they arrive.
   */
  pauseAll(): readonly PausedPush[] {
    this.pausedAll = [];
    return this.pausedAll;
  }

  /** Answers every push `pauseAll()` kept waiting; later pushes are answered at once again. */
  answerAll(): void {
    const waiting = this.pausedAll ?? [];
    this.pausedAll = undefined;
    for (const paused of waiting) paused.answer();
  }

  /** The pushes a subscription received and took (2xx), decrypted. */
  deliveredTo(subscription: PushSubscriptionJson): ReceivedPush[] {
    const id = this.subscriber(subscription).id;
    return this.received.filter((push) => push.subscription === id && push.status < 300);
  }

  private subscriber(subscription: PushSubscriptionJson): Subscriber {
    const id = subscription.endpoint.split('/').pop()!;
    const found = this.subscribers.get(id);
    if (!found) throw new Error(`no subscription ${id}`);
    return found;
  }

  private async handle(
    request: IncomingMessage,
  ): Promise<{ status: number; headers: Record<string, string> }> {
    const body = await readBody(request);
    const id = /^\/push\/([A-Za-z0-9-]+)$/.exec(request.url ?? '')?.[1];
    const subscriber = id === undefined ? undefined : this.subscribers.get(id);
    if (request.method !== 'POST' || !subscriber) return { status: 404, headers: {} };
    const problem = checkVapid(request.headers.authorization, this.origin, this.relayKey);
    if (problem) {
      this.refused.push(problem);
      return { status: 403, headers: {} };
    }
    const ttl = Number(request.headers['ttl']);
    if (!Number.isInteger(ttl) || ttl < 0) {
      this.refused.push('TTL header missing');
      return { status: 400, headers: {} };
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      this.refused.push('Content-Encoding is not aes128gcm');
      return { status: 415, headers: {} };
    }
    let plaintext: Buffer;
    try {
      plaintext = decryptAes128gcm(body, subscriber.ecdh, subscriber.auth);
    } catch (error) {
      this.refused.push(`cannot decrypt: ${(error as Error).message}`);
      return { status: 400, headers: {} };
    }
    const push: HeldPush = {
      subscription: subscriber.id,
      ttl,
      urgency: request.headers['urgency'] as string | undefined,
      topic: request.headers['topic'] as string | undefined,
      payload: JSON.parse(plaintext.toString('utf8')) as Record<string, unknown>,
      bytes: plaintext.length,
      at: performance.now(),
      sender: vapidSubject(request.headers.authorization),
    };
    const held = this.hold;
    if (held) {
      this.hold = undefined;
      held(push);
      return new Promise(() => undefined);
    }
    const paused = this.pause;
    if (paused) {
      this.pause = undefined;
      await new Promise<void>((answer) => paused({ push, answer }));
    }
    const pausedAll = this.pausedAll;
    if (pausedAll) await new Promise<void>((answer) => pausedAll.push({ push, answer }));
    const answer = subscriber.answers.shift() ?? { status: 201 };
    this.received.push({ ...push, status: answer.status });
    return {
      status: answer.status,
      headers: {
        ...(answer.retryAfter !== undefined && { 'retry-after': answer.retryAfter }),
        ...(answer.status === 201 && { location: `${this.origin}/message/${this.received.length}` }),
      },
    };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
