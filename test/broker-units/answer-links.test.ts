/**
 * The single-use answer link a message with answer buttons carries (ntfy, docs/providers.md "ntfy and
 * answers"), asked of the real relay built in this process (test/relay-units/in-process-relay.ts) with
 * the broker's own provider store and sealed secrets on a real SQLite file. Which relay is asked, and
 * when there is no link, is what decides whether the phone's buttons work or the message goes without.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answerLinkFor } from '../../src/broker/answer-links.js';
import type { OutboundNotification, SettingValues } from '../../src/delivery/provider.js';
import { SecretVault } from '../../src/secrets/secret-vault.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { ProviderStore } from '../../src/store/provider-store.js';
import { startInProcessRelay, type InProcessRelay } from '../relay-units/in-process-relay.js';
import { api, deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';
import { within } from '../support/wait-for.js';

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

function request(id: string, overrides: Partial<OutboundNotification> = {}): OutboundNotification {
  return {
    id,
    title: 'Run this?',
    message: 'npm publish',
    type: 'permission_required',
    priority: 'high',
    status: 'active',
    revision: 1,
    agent: 'claude-code',
    createdAt: '2026-11-25T17:42:00.000Z',
    updatedAt: '2026-11-25T17:42:00.000Z',
    actions: ACTIONS,
    ...overrides,
  };
}

/** A relay address that records every request and refuses it (409), as a relay that will not hand out a link. */
async function recordingRelay(): Promise<{ url: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const server = createServer((incoming, response) => {
    asked.push(`${incoming.method} ${incoming.url}`);
    incoming.resume();
    response.writeHead(409, { 'content-type': 'application/json' });
    response.end('{"error":"conflict"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, server };
}

describe('answer links for buttons on a phone', () => {
  let folder: string;
  let db: Db;
  let providers: ProviderStore;
  let vault: SecretVault;
  let relay: InProcessRelay;
  let credential: string;
  let recorder: Awaited<ReturnType<typeof recordingRelay>>;
  let next = 0;
  const never = new AbortController().signal;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'notify-answer-links-'));
    db = openDatabase(join(folder, 'notify.db'));
    providers = new ProviderStore(db);
    const key = randomBytes(32);
    vault = new SecretVault(async () => ({ store: 'file', key }));
    relay = await startInProcessRelay();
    ({ credential } = await pairSender(relay, await setUpOperator(relay)));
    recorder = await recordingRelay();
  });
  after(async () => {
    await relay.cleanup();
    recorder.server.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Saves a provider as the broker does: plain settings, the secret ones sealed under the master key. */
  async function addProvider(
    kind: string,
    settings: SettingValues,
    secrets: Record<string, string>,
    options: { enabled?: boolean; sealWith?: SecretVault } = {},
  ): Promise<string> {
    const id = `provider-${++next}`;
    const sealed = await (options.sealWith ?? vault).sealAll(id, new Map(Object.entries(secrets)));
    const now = Date.now() + next;
    providers.save(
      { id, kind, name: id, enabled: options.enabled ?? true, settings, createdAt: now, updatedAt: now },
      sealed,
    );
    return id;
  }
  const removeAll = () => {
    for (const provider of providers.list()) providers.delete(provider.id, Date.now());
  };
  const linkFor = (notification: OutboundNotification, signal = never) =>
    within(answerLinkFor({ providers, vault }, notification, signal), 'the answer link');
  const held = async (id: string, revision = 1) =>
    assert.equal((await deliver(relay, credential, id, delivered({ revision }))).status, 201);

  it('gets the link of the revision the relay holds, and the link answers that request once', async () => {
    removeAll();
    await addProvider('webhook', { url: recorder.url }, {});
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    await held('held-1');
    const link = await linkFor(request('held-1'));
    assert.ok(link, 'a link');
    assert.match(link.token, /^nrt_[A-Za-z0-9_-]{43}$/);
    assert.ok(link.url.startsWith(`${relay.url}/v1/push/notifications/`), link.url);
    assert.equal(JSON.stringify(link).includes(credential), false, "the relay's credential stays here");
    const pressed = await api(relay, 'POST', new URL(link.url).pathname, {
      body: { action: 'deny', token: link.token },
    });
    assert.equal(pressed.status, 200, JSON.stringify(pressed.body));
    assert.deepEqual(recorder.asked, [], 'no other provider is asked for a link');
  });

  it('waits for a relay that does not hold the revision yet, then gets its link', async () => {
    removeAll();
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    const asking = linkFor(request('late-1'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await held('late-1');
    const link = await asking;
    assert.ok(link?.url.startsWith(relay.url), 'the link once the relay held the revision');
  });

  it('stops waiting when the send is stopped, without a link', async () => {
    removeAll();
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    const stop = new AbortController();
    const asking = linkFor(request('never-held'), stop.signal);
    setTimeout(() => stop.abort(), 300);
    assert.equal(await within(asking, 'the end of the wait once stopped', 3_000), undefined);
  });

  it('sends without buttons once the wait is over: a relay that never holds the revision, or never answers', async () => {
    removeAll();
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    const short = (notification: OutboundNotification) =>
      within(answerLinkFor({ providers, vault }, notification, never, 400), 'the end of the wait', 3_000);
    assert.equal(await short(request('never-held-either')), undefined, 'a relay without the revision');

    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      removeAll();
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await addProvider('relay', { url, allowPrivate: true }, { credential });
      assert.equal(await short(request('unanswered')), undefined, 'a relay that never answers');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('gives no link, at once, for a revision the relay has replaced', async () => {
    removeAll();
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    await held('replaced-1', 1);
    const changed = delivered({ revision: 2, message: 'npm publish --tag next' });
    const updated = await deliver(relay, credential, 'replaced-1', {
      ...changed,
      updated_at: '2026-11-25T17:43:00.000Z',
    });
    assert.equal(updated.status, 200);
    assert.equal(await linkFor(request('replaced-1', { revision: 1 })), undefined);
    assert.ok(await linkFor(request('replaced-1', { revision: 2 })), 'the current revision has one');
  });

  it('gives no link for an ended request, one without buttons or without a revision, even where the relay holds one', async () => {
    removeAll();
    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    await held('ended-1');
    for (const [what, notification] of [
      ['resolved', request('ended-1', { status: 'resolved' })],
      ['dismissed', request('ended-1', { status: 'dismissed' })],
      ['no actions', request('ended-1', { actions: [] })],
      ['actions absent', request('ended-1', { actions: undefined })],
    ] as const) {
      assert.equal(await linkFor(notification), undefined, what);
    }
    const unrevised = request('ended-1');
    delete unrevised.revision;
    assert.equal(await linkFor(unrevised), undefined, 'no revision');
    assert.ok(await linkFor(request('ended-1')), 'the active request with buttons has one');
  });

  it('asks only an enabled relay: none, a disabled one, or one whose credential cannot be opened give no link', async () => {
    removeAll();
    await held('choice-1');
    assert.equal(await linkFor(request('choice-1')), undefined, 'no relay at all');
    await addProvider('relay', { url: recorder.url, allowPrivate: true }, { credential }, { enabled: false });
    assert.equal(await linkFor(request('choice-1')), undefined, 'only a disabled relay');
    assert.deepEqual(recorder.asked, [], 'a disabled relay is never asked');

    await addProvider('relay', { url: relay.url, allowPrivate: true }, { credential });
    assert.ok(await linkFor(request('choice-1')), 'the enabled relay after the disabled one');
    assert.deepEqual(recorder.asked, []);

    removeAll();
    const otherKey = new SecretVault(async () => ({ store: 'file', key: randomBytes(32) }));
    await addProvider(
      'relay',
      { url: relay.url, allowPrivate: true },
      { credential },
      { sealWith: otherKey },
    );
    assert.equal(await linkFor(request('choice-1')), undefined, 'a credential sealed under another key');
  });

  it("never asks a relay whose address breaks its profile's rules: no link, and its credential stays here", async () => {
    removeAll();
    recorder.asked.length = 0;
    // 127.0.0.1 is this machine: only a profile paired with --allow-private may reach it.
    await addProvider('relay', { url: recorder.url, allowPrivate: false }, { credential });
    assert.equal(await linkFor(request('private-1')), undefined);
    assert.deepEqual(recorder.asked, [], 'the relay on a private address was never asked');
  });

  it('gives no link when a relay hands out one that is not a web address, or a token of another shape', async () => {
    const token = `nrt_${'a'.repeat(43)}`;
    let handedOut = { url: '', token };
    const rogue = createServer((incoming, response) => {
      incoming.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...handedOut, lifecycle: 1, revision: 1 }));
    });
    await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
    try {
      removeAll();
      const url = `http://127.0.0.1:${(rogue.address() as AddressInfo).port}`;
      await addProvider('relay', { url, allowPrivate: true }, { credential });
      const answer = `${url}/v1/push/notifications/1/answer`;
      for (const link of [
        { url: 'javascript:alert(document.cookie)', token },
        { url: 'file:///etc/passwd', token },
        { url: 'intent://pay#Intent;end', token },
        // A link that would carry something else than an answer token to the phone.
        { url: answer, token: 'nrc_the-credential-of-another-installation' },
        { url: answer, token: `${token}"}` },
      ]) {
        handedOut = link;
        assert.equal(await linkFor(request('rogue-1')), undefined, JSON.stringify(link));
      }
      handedOut = { url: answer, token };
      assert.deepEqual(
        await linkFor(request('rogue-1')),
        { url: answer, token },
        'a well-formed link is taken',
      );
    } finally {
      rogue.closeAllConnections();
      rogue.close();
    }
  });
});
