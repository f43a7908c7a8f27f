import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DeliveryOperation, DeliveryResult, SettingValues } from '../../src/delivery/provider.js';
import { PROVIDER_KINDS } from '../../src/delivery/registry.js';
import { TEST_MESSAGE, TEST_TITLE } from '../../src/delivery/test-action.js';
import { MESSAGE_MARKER, notification, operation, withoutMessage } from './support/fixtures.js';
import { freePort, PROVIDER_RIGS, type Failure, type Rig } from './support/provider-rigs.js';
import { startProviderService } from './support/provider-service.js';

/**
 * Every provider through the same cases against a real local receiver that speaks its protocol. A
 * case a protocol cannot express (SMTP has no Retry-After) is absent from that provider's table.
 */

const WAIT_MS = 10_000;

it('has a conformance rig for every registered provider kind', () => {
  assert.deepEqual(
    PROVIDER_RIGS.map((rig) => rig.kind.id).sort(),
    PROVIDER_KINDS.map((kind) => kind.id).sort(),
  );
});

for (const providerRig of PROVIDER_RIGS) {
  const { kind, expected } = providerRig;

  describe(`${kind.id} provider`, () => {
    let rig: Rig;
    before(async () => {
      rig = await providerRig.start();
    });
    after(() => rig.close());

    async function deliver(
      op: DeliveryOperation,
      failure: Failure,
      settings: SettingValues = rig.settings,
      timeoutMs = WAIT_MS,
    ): Promise<DeliveryResult> {
      rig.set(failure);
      const result = await kind.deliver(op, { settings, signal: AbortSignal.timeout(timeoutMs) });
      const shown = JSON.stringify(result);
      for (const secret of rig.secrets) assert.ok(!shown.includes(secret), `a secret leaked into ${shown}`);
      return result;
    }

    function assertExpected(
      result: DeliveryResult,
      want: NonNullable<(typeof expected)[keyof typeof expected]>,
    ) {
      assert.equal(result.outcome, want.outcome, JSON.stringify(result));
      if (want.reason !== undefined)
        assert.equal('reason' in result ? result.reason : undefined, want.reason);
      if (want.retryAfterMs !== undefined) {
        assert.equal(result.outcome === 'retry' ? result.retryAfterMs : undefined, want.retryAfterMs);
      }
    }

    it('delivers the payload the service documents when the receiver accepts it', async () => {
      const op = operation();
      const result = await deliver(op, 'ok');
      rig.assertDelivered(op, result);
    });

    for (const failure of ['http500', 'http503', 'http400', 'http429'] as const) {
      const want = expected[failure];
      if (want === undefined) continue;
      it(`answers ${want.outcome} (${want.reason}) when the receiver fails with ${failure}`, async () => {
        assertExpected(await deliver(operation(), failure), want);
      });
    }

    it('retries with reason timeout when the receiver never answers', async () => {
      const result = await deliver(operation(), 'hang', rig.settings, providerRig.timeoutMs);
      assert.deepEqual(result, { outcome: 'retry', reason: 'timeout' });
    });

    const refused = expected.refused;
    if (refused !== undefined) {
      it(`retries (${refused.reason}) when nothing listens at the address`, async () => {
        assertExpected(await deliver(operation(), 'ok', rig.refusedSettings(await freePort())), refused);
      });
    }

    it('sends only the title when the route leaves the message out (IncludeMessage false)', async () => {
      const before = rig.received().length;
      const op = operation({ notification: withoutMessage() });
      assert.equal((await deliver(op, 'ok')).outcome, 'delivered');
      const sent = rig.received().slice(before);
      assert.equal(sent.length, 1);
      assert.ok(!sent[0]?.includes(MESSAGE_MARKER), 'the message left the machine');
      assert.ok(
        sent[0]?.includes(JSON.stringify(op.notification.title).slice(1, -1)) ||
          sent[0]?.includes(op.notification.title),
      );
    });

    it('names the agent and the project, as the toast does, with or without the message', async () => {
      for (const message of [true, false]) {
        const before = rig.received().length;
        const sent = notification({ agent: 'agent-q7', project: 'project-z9' });
        if (!message) delete sent.message;
        assert.equal((await deliver(operation({ notification: sent }), 'ok')).outcome, 'delivered');
        const [received] = rig.received().slice(before);
        assert.ok(
          received?.includes('agent-q7') && received.includes('project-z9'),
          `the agent and project reach the service: ${received}`,
        );
      }
    });

    it(`declares lifecycle sync (update ${kind.lifecycle.update}, clear ${kind.lifecycle.clear}) and the rig checks exactly that`, () => {
      assert.equal(rig.assertUpdated !== undefined, kind.lifecycle.update);
      assert.equal(rig.assertCleared !== undefined, kind.lifecycle.clear);
    });

    if (kind.lifecycle.update || kind.lifecycle.clear) {
      it('edits and then clears what it delivered, using the reference of the first delivery', async () => {
        const sent = operation();
        const first = await deliver(sent, 'ok');
        assert.equal(first.outcome, 'delivered');
        const reference = first.outcome === 'delivered' ? first.reference : undefined;
        const base = { idempotencyKey: `${sent.idempotencyKey}-next`, ...(reference ? { reference } : {}) };
        if (kind.lifecycle.update) {
          const update = operation({
            ...base,
            operation: 'update',
            event: 'notification.updated',
            notification: {
              ...sent.notification,
              title: 'Build failed again',
              updatedAt: '2026-11-23T10:05:00.000Z',
            },
          });
          assert.equal((await deliver(update, 'ok')).outcome, 'delivered');
          rig.assertUpdated?.(update);
        }
        if (kind.lifecycle.clear) {
          const clear = operation({
            ...base,
            operation: 'clear',
            event: 'notification.resolved',
            notification: { ...sent.notification, status: 'resolved', updatedAt: '2026-11-23T10:09:00.000Z' },
          });
          assert.equal((await deliver(clear, 'ok')).outcome, 'delivered');
          rig.assertCleared?.(clear);
        }
      });
    }

    it('answers its Test action in one sentence, through the same receiver', async () => {
      // The ProviderService behind POST /v1/providers/{id}/test and `notifyctl providers test`.
      const services = startProviderService([kind]);
      try {
        const id = await services.add(kind, rig.settings);
        const before = rig.received().length;
        rig.set('ok');
        const outcome = await services.service.test(id);
        assert.equal(outcome.outcome, 'delivered', outcome.summary);
        assert.match(outcome.summary, /^[^\n]+ accepted the test notification( \(HTTP \d{3}\))?\.$/);
        const sent = rig.received().slice(before).join('\n');
        assert.ok(sent.includes(TEST_TITLE) && sent.includes(TEST_MESSAGE));
        rig.set('http503');
        const failed = await services.service.test(id);
        assert.deepEqual([failed.outcome, failed.reason], ['retry', expected.http503?.reason]);
        assert.ok(failed.summary.endsWith('a real notification would be retried.'), failed.summary);
        for (const secret of rig.secrets) assert.ok(!failed.summary.includes(secret));
        assert.equal(services.service.get(id).lastResult?.reason, expected.http503?.reason);
      } finally {
        services.close();
      }
    });
  });
}
