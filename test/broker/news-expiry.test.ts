import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitForLog } from '../support/broker-log.js';
import { createTempHome, startBroker } from '../support/broker-process.js';

describe('news resolves itself after its time', () => {
  it('resolves news unchanged for its resolveAfterMinutes, also across a restart, and keeps what needs a person', async () => {
    const home = createTempHome();
    // Three seconds: the due time comes from the stored updatedAt, so a broker started later still sees it.
    const config = { types: { completed: { resolveAfterMinutes: 0.05 } } };
    let broker = await startBroker({ home, config });
    const ids: Record<string, string> = {};
    try {
      for (const type of ['completed', 'info', 'input_required']) {
        const response = await broker.request('POST', '/v1/notifications', {
          title: type,
          message: 'm',
          type,
        });
        ids[type] = ((await response.json()) as { id: string }).id;
      }
      await broker.stop();
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      broker = await startBroker({ home, config });
      await waitForLog(home, 'resolved 1 news notification(s) after their time');
      const status = async (id: string) =>
        ((await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as { status: string })
          .status;
      assert.equal(await status(ids['completed']!), 'resolved');
      assert.equal(await status(ids['info']!), 'active', 'info keeps its default hour');
      assert.equal(
        await status(ids['input_required']!),
        'active',
        'what needs a person never resolves itself',
      );
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
