import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fixtureFile, HOOK } from '../hooks/support.js';
import { readLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOTIFY } from '../support/notify-cli.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { setUpOperator, type WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { notify, profileOf, routeEverythingTo, states } from './relay-cli.js';

interface InboxItem {
  inbox_id: string;
  id: string;
  lifecycle: number;
  revision: number;
  status: string;
  title: string;
  actions: { id: string; label: string }[];
}

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

/**
 * The whole flow with the real programs: `notify relay pair` against the real notify-relay, approved
 * on its page; the real notifyd delivers; the person answers Allow in the relay's inbox and the waiting
 * PermissionRequest hook on the laptop prints the allow decision; a resolve at the desk clears it on
 * the relay; status; a revocation on the relay shows in status.
 */
describe(
  'relay end to end: notify, notifyd, the hook and the real notify-relay',
  { timeout: 120_000 },
  () => {
    let broker: BrokerProcess;
    let relay: RelayProcess;
    let web: WebSession;

    before(async () => {
      broker = await startBroker();
      relay = await startRelay();
      web = await setUpOperator(relay);
    });
    after(async () => {
      await broker.stop();
      broker.home.cleanup();
      await relay.cleanup();
    });

    async function inbox(): Promise<InboxItem[]> {
      const { status, body } = await web.inbox('GET', '/v1/inbox/notifications');
      assert.equal(status, 200);
      return body['notifications'] as InboxItem[];
    }

    it('pairs after approval on the relay page, then delivers, answers, clears, reports and sees the revocation', async () => {
      // Pair: the code printed by notify is approved on the relay's page.
      const child = spawn(
        process.execPath,
        [NOTIFY, 'relay', 'pair', '--url', relay.url, '--allow-private', '--json'],
        {
          env: broker.home.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      const code = await new Promise<string>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const first = /"user_code":"([A-Z0-9-]+)"/.exec(stdout);
          if (first) resolve(first[1]!);
        }),
      );
      const page = await web.get(`/pair?code=${code}`);
      assert.equal(page.status, 200, page.text);
      const pairingId = /name="pairing_id" value="([^"]+)"/.exec(page.text)?.[1];
      assert.ok(pairingId, page.text);
      assert.equal((await web.post('/pair', { pairing_id: pairingId, decision: 'approve' })).status, 200);
      assert.equal(await exited, 0, stderr);
      const transitions = states({ code: 0, stdout, stderr });
      assert.deepEqual(
        transitions.map((entry) => entry['state']),
        ['awaiting_approval', 'approved', 'saved'],
      );
      const installation = transitions[1]!['installation'] as { id: string; name: string };
      const profile = (await profileOf(broker, relay))!;
      assert.equal(profile.name, 'Test relay');
      assert.equal(profile.enabled, false);

      // Enable it with a route: the hook's permission request reaches the relay's inbox.
      await routeEverythingTo(broker, profile.id);
      const hook = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=60'], {
        env: broker.home.env,
        stdio: 'pipe',
      });
      let hookOut = '';
      hook.stdout.on('data', (chunk: Buffer) => (hookOut += chunk.toString()));
      const hookDone = new Promise<number | null>((resolve) => hook.once('close', resolve));
      hook.stdin.end(JSON.stringify({ ...CLAUDE, session_id: 'relay-e2e' }));
      const item = await waitFor(
        async () => (await inbox()).find((entry) => entry.title === 'Claude Code needs your permission'),
        'the request in the relay inbox',
      );
      assert.deepEqual(
        item.actions.map((action) => action.id),
        ['allow', 'deny', 'allow_always'],
      );

      // Allow on the phone: the hook on the laptop prints the allow decision.
      await waitFor(() => readLog(broker.home).includes('event stream open'), 'the answer stream');
      const answered = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
        action: 'allow',
        lifecycle: item.lifecycle,
        revision: item.revision,
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(await hookDone, 0);
      assert.deepEqual(JSON.parse(hookOut), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
      });
      const local = (await (await broker.request('GET', `/v1/notifications/${item.id}`)).json()) as {
        status: string;
        answer: { action: string; surface: string };
      };
      assert.deepEqual(
        [local.status, local.answer.action, local.answer.surface],
        ['resolved', 'allow', 'relay'],
      );

      // Resolve at the desk: the relay's inbox shows it resolved.
      const sent = await notify(broker, 'send', 'Deploy finished', 'v2.3 is live', '--type', 'completed');
      const sentId = (JSON.parse(sent.stdout) as { id: string }).id;
      await waitFor(
        async () => (await inbox()).find((entry) => entry.id === sentId && entry.status === 'active'),
        'the send on the relay',
      );
      assert.equal((await notify(broker, 'resolve', sentId)).code, 0);
      await waitFor(
        async () => (await inbox()).find((entry) => entry.id === sentId && entry.status === 'resolved'),
        'the resolve on the relay',
      );

      // Status: connected, then revoked on the relay's installations page.
      const connected = await notify(broker, 'relay', 'status', '--json');
      assert.equal(connected.code, 0, connected.stderr);
      assert.deepEqual(states(connected), [
        {
          id: profile.id,
          name: 'Test relay',
          url: relay.url,
          state: 'connected',
          installation,
          disabled: false,
        },
      ]);
      await web.get('/installations');
      assert.equal(
        (await web.post(`/installations/${installation.id}/revoke`, { confirm: 'yes' })).status,
        200,
      );
      const revoked = await notify(broker, 'relay', 'status', '--json');
      assert.equal(revoked.code, 1);
      assert.equal(states(revoked)[0]!['state'], 'revoked');
    });
  },
);
