import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { notify } from './relay-cli.js';

describe('notify relay status without relays', () => {
  const broker = useBroker();

  it('says there are none, with a hint, and exits 0; --json prints nothing', async () => {
    const plain = await notify(broker, 'relay', 'status');
    assert.deepEqual(plain, {
      code: 0,
      stdout: '(no relay profiles)\n',
      stderr: 'Hint: pair with a relay first: notify relay pair --url https://relay.example.com\n',
    });
    assert.deepEqual(await notify(broker, 'relay', 'status', '--json'), { code: 0, stdout: '', stderr: '' });
  });

  it('refuses the connection check of a kind that has none (use its test)', async () => {
    const created = await broker.request('POST', '/v1/providers', {
      kind: 'webhook',
      settings: { url: 'https://hooks.example.com/x' },
    });
    const { id } = (await created.json()) as { id: string };
    const response = await broker.request('GET', `/v1/providers/${id}/connection`);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      error: `a Webhook provider has no connection check; use POST /v1/providers/${id}/test instead`,
    });
  });

  it('refuses unknown options and arguments with the command named', async () => {
    const result = await notify(broker, 'relay', 'status', '--verbose');
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "unknown option '--verbose' for relay status. Run 'notify help relay'.\n");
  });
});
