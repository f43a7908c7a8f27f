/**
 * The limits a started notify-relay enforces (src/relay-server/run-relay.ts wires them), as a client
 * meets them: how many requests a window allows from one address or person, the 429 with its
 * Retry-After after that, the window's end opening it again, and --processes sharing each limit out.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { deliver, delivered, pairSender, setUpOperator, type WebSession } from '../support/relay-web.js';
import { movableClock, run, served, stopAll } from './relay-run.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-limits-'));
let folders = 0;
afterEach(stopAll);
after(() => rmSync(folder, { recursive: true, force: true }));

const MINUTE = 60_000;
const CONTACT = ['--contact', 'mailto:ops@example.org'];
const MARGIN_S = 5;

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    text: await response.text(),
  };
}

const waitSeconds = (answer: Answer): number => Number(answer.retryAfter);

interface LimitCase {
  what: string;
  max: number;
  windowMs: number;
  /** Options the relay starts with besides the port, its data and --processes. */
  options?: string[];
  /** One request the limit counts, to the relay at `url`, by its signed-in operator or a paired sender. */
  request(url: string, by: { operator: WebSession; sender: () => Promise<string> }): Promise<Answer>;
  refusal: RegExp;
}

const LIMITS: LimitCase[] = [
  {
    what: 'pairing requests from one address',
    max: 10,
    windowMs: MINUTE,
    request: async (url) =>
      answerOf(
        await fetch(`${url}/v1/pairings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      ),
    refusal: /"error_description":"Too many pairing requests from this address\."/,
  },
  {
    what: 'pairing polls from one address',
    max: 60,
    windowMs: MINUTE,
    request: async (url) => answerOf(await fetch(`${url}/v1/pairings/p_unknown/poll`, { method: 'POST' })),
    refusal: /"error_description":"Too many polls from this address\."/,
  },
  {
    what: 'wrong pairing codes by one person',
    max: 10,
    windowMs: 15 * MINUTE,
    request: async (_url, { operator }) => {
      const page = await operator.get('/pair?code=BCDF-GHJK');
      return { status: page.status, retryAfter: page.headers.get('retry-after'), text: page.text };
    },
    refusal: /Too many wrong codes\. Try again in 15 min\./,
  },
  {
    what: 'deliveries from one installation (--delivery-rate 4)',
    max: 4,
    windowMs: MINUTE,
    options: ['--delivery-rate', '4'],
    request: async (url, { sender }) => {
      const answer = await deliver({ url }, await sender(), `n_${crypto.randomUUID()}`, delivered());
      return {
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        text: JSON.stringify(answer.body),
      };
    },
    refusal: /"error_description":"Too many deliveries from this installation\."/,
  },
];

describe('notify-relay limits, in process', () => {
  for (const limit of LIMITS) {
    for (const processes of [1, 2]) {
      const allowed = Math.ceil(limit.max / processes);
      it(`${limit.what}: ${allowed} a window with --processes ${processes}, then 429 until the window ends`, async () => {
        const clock = movableClock();
        const relay = run(
          [
            '--data',
            join(folder, `data-${++folders}`),
            '--port',
            '0',
            '--processes',
            String(processes),
            ...CONTACT,
            ...(limit.options ?? []),
          ],
          { env: clock.env },
        );
        const address = await served(relay);
        const operator = await setUpOperator(address);
        let credential: Promise<string> | undefined;
        const by = {
          operator,
          sender: () =>
            (credential ??= pairSender({ ...address, advance: clock.advance }, operator).then(
              (paired) => paired.credential,
            )),
        };
        for (let count = 1; count <= allowed; count++) {
          const answer = await limit.request(address.url, by);
          assert.notEqual(answer.status, 429, `request ${count} of ${allowed}`);
        }
        const refused = await limit.request(address.url, by);
        assert.equal(refused.status, 429);
        assert.match(refused.text, limit.refusal);
        // The window started at the first request; a slow machine may have taken a few seconds since.
        const windowSeconds = limit.windowMs / 1000;
        assert.ok(waitSeconds(refused) <= windowSeconds && waitSeconds(refused) > windowSeconds - MARGIN_S);
        clock.advance(limit.windowMs - MARGIN_S * 1000);
        const stillRefused = await limit.request(address.url, by);
        assert.equal(stillRefused.status, 429, 'a few seconds before the window ends');
        assert.ok(waitSeconds(stillRefused) <= MARGIN_S, stillRefused.retryAfter ?? 'no Retry-After');
        clock.advance(MARGIN_S * 1000);
        assert.notEqual((await limit.request(address.url, by)).status, 429, 'the window has ended');
        assert.equal(await relay.stop(), 0);
      });
    }
  }
});
