/**
 * What must stop working on the real notify-relay once its time is up or the page is out of date: an
 * expired pairing request, a session past its 7 days, sign-ins from one address past its limit, a status
 * change for a lifecycle that has ended.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  createPairing,
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  pollOnTime,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';

const HOUR = 3_600_000;

let relay: RelayProcess;

before(async () => {
  relay = await startRelay();
  await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** A new signed-in browser: the tests move the clock by days, past the first session's end. */
async function signedIn(): Promise<WebSession> {
  const browser = new WebSession(relay);
  await browser.get('/sign-in');
  assert.equal((await browser.post('/sign-in', OPERATOR)).status, 303);
  await browser.get('/inbox');
  return browser;
}

describe('pairing requests past their 10 minutes', () => {
  it('a request that expired while its page was open cannot be approved: the page says so, the sender gets expired', async () => {
    const web = await signedIn();
    const pairing = await createPairing(relay, 'late-laptop');
    const page = await web.get(`/pair?code=${pairing.user_code}`);
    assert.equal(page.status, 200, page.text);
    relay.advance(pairing.expires_in * 1000 + 1_000);
    const approved = await web.post('/pair', { pairing_id: pairing.pairing_id, decision: 'approve' });
    assert.equal(approved.status, 409, approved.text);
    assert.match(
      approved.text,
      /This pairing request is no longer open: it expired or was decided already\./,
    );
    assert.doesNotMatch(approved.text, /Approved/);
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'expired' });
    const installations = await web.get('/installations');
    assert.doesNotMatch(installations.text, /late-laptop/);
  });
});

describe('sessions past their lifetime', () => {
  it('a session used every 11 hours still ends 7 days after sign-in: the inbox sends the browser to sign in', async () => {
    const browser = await signedIn();
    for (let used = 11; used < 7 * 24; used += 11) {
      relay.advance(11 * HOUR);
      assert.equal((await browser.get('/inbox')).status, 200, `still signed in after ${used} hours`);
    }
    relay.advance(11 * HOUR);
    const page = await browser.get('/inbox');
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location') ?? '', /^\/sign-in\?next=/);
    const listed = await browser.inbox('GET', '/v1/inbox/notifications', undefined, undefined);
    assert.equal(listed.status, 401);
  });
});

describe('sign-ins from one address', () => {
  it('after 10 failures from one address, for 10 different names, even the right password from there is refused for a while', async () => {
    relay.advance(16 * 60_000);
    const guesser = new WebSession(relay, { localAddress: '127.0.0.4' });
    await guesser.get('/sign-in');
    for (let index = 0; index < 10; index++) {
      const wrong = await guesser.post('/sign-in', {
        username: `guess-${index}`,
        password: 'not the password',
      });
      assert.equal(wrong.status, 401, `failure ${index + 1}`);
    }
    const limited = await guesser.post('/sign-in', OPERATOR);
    assert.equal(limited.status, 429, limited.text);
    assert.match(limited.text, /Too many failed sign-ins\. Try again in \d+ min\./);
    assert.equal(guesser.cookies.get('notify_relay_session'), undefined);

    const person = new WebSession(relay);
    await person.get('/sign-in');
    assert.equal((await person.post('/sign-in', OPERATOR)).status, 303, 'other addresses are not stopped');
    relay.advance(15 * 60_000 + 1_000);
    assert.equal((await guesser.post('/sign-in', OPERATOR)).status, 303, 'the window ends');
  });
});

describe('a page that shows an ended lifecycle', () => {
  it('dismissing the old lifecycle of a reopened request is refused (409): the request stays active and the sender hears nothing of it', async () => {
    const web = await signedIn();
    const sender = await pairSender(relay, web, 'reopen-laptop');
    const stream = new SseReader(relay.port, { authorization: `Bearer ${sender.credential}` }, '/v1/events');
    try {
      await stream.until((reader) => reader.text.startsWith('retry: 5000'));
      await deliver(relay, sender.credential, 'n-reopen', delivered());
      const listed = await web.inbox('GET', '/v1/inbox/notifications', undefined, undefined);
      const shown = (listed.body['notifications'] as Record<string, unknown>[]).find(
        (item) => item['id'] === 'n-reopen',
      )!;
      assert.equal(shown['lifecycle'], 1);
      await api(relay, 'POST', '/v1/notifications/n-reopen/status', {
        bearer: sender.credential,
        body: { status: 'resolved' },
      });
      const reopened = await deliver(
        relay,
        sender.credential,
        'n-reopen',
        delivered({ updated_at: '2026-11-25T18:00:00.000Z' }),
      );
      assert.equal(reopened.body['lifecycle'], 2);

      const path = `/v1/inbox/notifications/${shown['inbox_id']}/status`;
      const stale = await web.inbox('POST', path, { status: 'dismissed', lifecycle: 1 });
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.equal(stale.body['error'], 'conflict');
      const after = await web.inbox('GET', '/v1/inbox/notifications', undefined, undefined);
      const now = (after.body['notifications'] as Record<string, unknown>[]).find(
        (item) => item['id'] === 'n-reopen',
      )!;
      assert.deepEqual([now['status'], now['lifecycle']], ['active', 2]);

      // The current page's dismissal is the only status change the sender hears.
      assert.equal((await web.inbox('POST', path, { status: 'dismissed', lifecycle: 2 })).status, 200);
      const statusEvents = () =>
        stream.events
          .filter((frame) => frame.event === 'status')
          .map((frame) => JSON.parse(frame.data!) as Record<string, unknown>)
          .filter((event) => event['notification_id'] === 'n-reopen');
      await stream.until(() => statusEvents().length > 0);
      assert.deepEqual(
        statusEvents().map((event) => [event['lifecycle'], event['status']]),
        [[2, 'dismissed']],
      );
    } finally {
      stream.close();
    }
  });
});
