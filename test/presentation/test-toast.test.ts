import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { useDesktop } from '../support/desktop-broker.js';
import { runNode } from '../support/run-node.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

describe('notifyctl test-toast with a notification server', () => {
  const desktop = useDesktop();

  it('shows the sample toast without buttons and says which server took it', async () => {
    const result = await runNode(NOTIFYCTL, ['test-toast'], { env: desktop.broker.home.env });
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
    const call = desktop.server.calls.at(-1)!;
    assert.equal(result.stdout, `Test toast shown by notify-test-server 1.0 (toast ${call.id}).\n`);
    assert.equal(call.summary, 'Notify test toast');
    assert.equal(call.body, 'If you can read this, Notify toasts work.\nnotifyctl · test-toast');
    assert.deepEqual(call.actions, []);
    assert.equal(call.expireTimeout, 7000);
    const list = (await (await desktop.broker.request('GET', '/v1/notifications')).json()) as unknown[];
    assert.equal(list.length, 0, 'a test toast stores nothing');
  });

  it('prints the answer as JSON with --json', async () => {
    const result = await runNode(NOTIFYCTL, ['test-toast', '--json'], { env: desktop.broker.home.env });
    assert.equal(result.code, 0);
    const call = desktop.server.calls.at(-1)!;
    assert.deepEqual(JSON.parse(result.stdout), {
      shown: true,
      server: 'notify-test-server 1.0',
      toastId: call.id,
    });
  });

  it('answers 401 to POST /v1/presentation/test without the token', async () => {
    const response = await fetch(`${desktop.broker.baseUrl}/v1/presentation/test`, { method: 'POST' });
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: 'unauthorized' });
  });

  it('refuses an unknown option with exit code 1', async () => {
    const result = await runNode(NOTIFYCTL, ['test-toast', '--loud'], { env: desktop.broker.home.env });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      "notifyctl test-toast: unknown option '--loud'. Run 'notifyctl test-toast --help'.\n",
    );
  });
});

describe('notifyctl test-toast without a desktop', () => {
  const broker = useBroker();

  it('exits 1 with the reason toasts are off and a hint', async () => {
    const result = await runNode(NOTIFYCTL, ['test-toast'], { env: broker.home.env });
    assert.equal(result.code, 1);
    const [first, hint] = result.stderr.split('\n');
    assert.equal(
      first,
      'Error 503 Service Unavailable: toasts are off: no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)',
    );
    assert.match(hint!, /^Hint: Notify shows toasts through a notification server on the session D-Bus/);
    assert.equal(result.stdout, '');
  });
});
