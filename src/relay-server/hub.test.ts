import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub, type HubMessage, type InboxChange } from './hub.js';
import type { StoredEvent } from './store.js';

const EVENT: StoredEvent = { id: 7, installationId: 'i_one', type: 'answer', data: '{}' };
const REMOVED: InboxChange = { kind: 'removed', installationId: 'i_one' };

/** Every listener of the hub, for two installations and two people, and what each heard. */
function listening(hub: Hub): { heard: string[]; stop: () => void } {
  const heard: string[] = [];
  const stops = [
    ...['i_one', 'i_two'].flatMap((id) => [
      hub.onEvent(id, (event) => heard.push(`event ${id} ${event.id}`)),
      hub.onRevoked(id, () => heard.push(`revoked ${id}`)),
    ]),
    ...['u_ada', 'u_bob'].flatMap((id) => [
      hub.onSessionsEnded(id, () => heard.push(`sessions-ended ${id}`)),
      hub.onInbox(id, (change) => heard.push(`inbox ${id} ${change.kind}`)),
    ]),
    hub.onPushQueued(() => heard.push('push-queued')),
  ];
  return { heard, stop: () => stops.forEach((stop) => stop()) };
}

function emitEach(hub: Hub): void {
  hub.emitEvent(EVENT);
  hub.emitRevoked('i_two');
  hub.emitSessionsEnded('u_bob');
  hub.emitInbox('u_ada', REMOVED);
  hub.emitPushQueued();
}

describe('the hub', () => {
  it('hands each message to the listeners of its installation or person only', () => {
    const hub = new Hub();
    const { heard } = listening(hub);
    emitEach(hub);
    assert.deepEqual(heard, [
      'event i_one 7',
      'revoked i_two',
      'sessions-ended u_bob',
      'inbox u_ada removed',
      'push-queued',
    ]);
  });

  it('hears nothing more once a listener stopped listening', () => {
    const hub = new Hub();
    const { heard, stop } = listening(hub);
    stop();
    emitEach(hub);
    assert.deepEqual(heard, []);
  });

  it('with a bus, sends every message through it and hands out only what the bus delivers', () => {
    const hub = new Hub();
    const { heard } = listening(hub);
    const published: HubMessage[] = [];
    hub.useBus((message) => published.push(message));
    emitEach(hub);
    assert.deepEqual(heard, [], 'nothing reaches a listener before the bus delivers it');
    assert.deepEqual(published, [
      { kind: 'event', event: EVENT },
      { kind: 'revoked', installationId: 'i_two' },
      { kind: 'sessions-ended', userId: 'u_bob' },
      { kind: 'inbox', userId: 'u_ada', change: REMOVED },
      { kind: 'push-queued' },
    ]);
    published.forEach((message) => hub.deliver(message));
    assert.deepEqual(heard, [
      'event i_one 7',
      'revoked i_two',
      'sessions-ended u_bob',
      'inbox u_ada removed',
      'push-queued',
    ]);
  });

  it('hands an inbox change over as it came', () => {
    const hub = new Hub();
    const changes: InboxChange[] = [];
    hub.onInbox('u_ada', (change) => changes.push(change));
    hub.emitInbox('u_ada', REMOVED);
    assert.deepEqual(changes, [REMOVED]);
  });

  it('takes any number of listeners without warning', async () => {
    const hub = new Hub();
    const warnings: Error[] = [];
    const warn = (warning: Error): number => warnings.push(warning);
    process.on('warning', warn);
    try {
      const stops = Array.from({ length: 20 }, () => hub.onEvent('i_one', () => undefined));
      // Node emits the warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      stops.forEach((stop) => stop());
    } finally {
      process.off('warning', warn);
    }
    assert.deepEqual(warnings, []);
  });
});
