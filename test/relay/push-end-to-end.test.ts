import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fixtureFile, HOOK } from '../hooks/support.js';
import { readLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOTIFY } from '../support/notify-cli.js';
import { PushService } from '../support/push-service.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { api, setUpOperator, type WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { notify, profileOf, routeEverythingTo } from './relay-cli.js';
import { addDevice, PUSH_ARGS } from './push-support.js';

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

/** `notify relay pair` approved on the relay's page, then the profile enabled with a route for everything. */
async function pairAndRoute(broker: BrokerProcess, relay: RelayProcess, web: WebSession): Promise<void> {
  const child = spawn(
    process.execPath,
    [NOTIFY, 'relay', 'pair', '--url', relay.url, '--allow-private', '--json'],
    {
      env: broker.home.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const code = await new Promise<string>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const first = /"user_code":"([A-Z0-9-]+)"/.exec(stdout);
      if (first) resolve(first[1]!);
    }),
  );
  const page = await web.get(`/pair?code=${code}`);
  const pairingId = /name="pairing_id" value="([^"]+)"/.exec(page.text)?.[1];
  assert.ok(pairingId, page.text);
  assert.equal((await web.post('/pair', { pairing_id: pairingId, decision: 'approve' })).status, 200);
  assert.equal(await exited, 0);
  await routeEverythingTo(broker, (await profileOf(broker, relay))!.id);
}

/**
 * Phone push with the real programs: notifyd paired with notify-relay, a device registered through the
 * inbox API as a browser would, a real PermissionRequest hook waiting; the push decrypted at the stand-in
 * and its answer link used → the hook prints allow. Resolving at the desk sends the closing push.
 */
describe(
  'phone push end to end: the hook, notifyd, notify-relay and a push service',
  { timeout: 120_000 },
  () => {
    let broker: BrokerProcess;
    let relay: RelayProcess;
    let web: WebSession;
    let service: PushService;

    before(async () => {
      service = await PushService.start();
      broker = await startBroker();
      relay = await startRelay({ args: PUSH_ARGS });
      web = await setUpOperator(relay);
      await pairAndRoute(broker, relay, web);
    });
    after(async () => {
      await broker.stop();
      broker.home.cleanup();
      await relay.cleanup();
      await service.stop();
    });

    it('Allow from the push answers the waiting hook; a resolve at the desk closes the alert', async () => {
      const { subscription } = await addDevice(web, service, 'Phone');
      const hook = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=60'], {
        env: broker.home.env,
        stdio: 'pipe',
      });
      let hookOut = '';
      hook.stdout.on('data', (chunk: Buffer) => (hookOut += chunk.toString()));
      const hookDone = new Promise<number | null>((resolve) => hook.once('close', resolve));
      hook.stdin.end(JSON.stringify({ ...CLAUDE, session_id: 'push-e2e' }));

      const push = await waitFor(
        () =>
          service
            .deliveredTo(subscription)
            .find((received) => received.payload['title'] === 'Claude Code needs your permission'),
        'the permission request pushed to the phone',
      );
      assert.equal(push.urgency, 'high');
      assert.equal(push.payload['type'], 'permission_required');
      assert.deepEqual(
        (push.payload['actions'] as { id: string }[]).map((action) => action.id),
        ['allow', 'deny', 'allow_always'],
      );
      await waitFor(() => readLog(broker.home).includes('event stream open'), 'the answer stream');
      const answer = push.payload['answer'] as { url: string; token: string };
      // As the service worker does: no cookie, no CSRF token, only the push's token.
      const answered = await api(relay, 'POST', new URL(answer.url).pathname, {
        body: { action: 'allow', token: answer.token },
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(await hookDone, 0);
      assert.deepEqual(JSON.parse(hookOut), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
      });
      const local = (await (
        await broker.request('GET', `/v1/notifications/${push.payload['id'] as string}`)
      ).json()) as {
        answer: { action: string; surface: string };
      };
      assert.deepEqual([local.answer.action, local.answer.surface], ['allow', 'relay']);

      const sent = await notify(broker, 'send', 'Deploy finished', 'v2.3 is live', '--type', 'completed');
      const sentId = (JSON.parse(sent.stdout) as { id: string }).id;
      await waitFor(
        () => service.deliveredTo(subscription).find((received) => received.payload['id'] === sentId),
        'the send pushed',
      );
      assert.equal((await notify(broker, 'resolve', sentId)).code, 0);
      const closing = await waitFor(
        () =>
          service
            .deliveredTo(subscription)
            .find(
              (received) => received.payload['id'] === sentId && received.payload['status'] === 'resolved',
            ),
        'the closing push after the resolve at the desk',
      );
      assert.deepEqual(closing.payload['actions'], []);
      assert.deepEqual(service.refused, []);
    });
  },
);
