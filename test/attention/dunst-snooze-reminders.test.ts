import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitForLog } from '../support/broker-log.js';
import { useDunstDesktop } from '../support/desktop-broker.js';
import { createDmenuStandIn } from '../support/dunst.js';
import { createDrivenClock } from '../support/driven-clock.js';
import { createStandInPlayers } from '../support/stand-in-player.js';
import { waitFor } from '../support/wait-for.js';

const MINUTE = 60_000;

/** What a person sees and hears: a real dunst under Xvfb, a sound player that records, a driven clock. */
describe('snooze and reminders in a real dunst (issue 20)', () => {
  const dmenu = createDmenuStandIn();
  const clock = createDrivenClock();
  const players = createStandInPlayers(['paplay']);
  const desktop = useDunstDesktop(
    { dmenu: dmenu.path },
    { ...clock.options, env: { ...clock.options.env, PATH: players.folder } },
  );
  after(() => {
    dmenu.cleanup();
    clock.cleanup();
    players.cleanup();
  });

  const displayed = async () => Number((await desktop.dunst.ctl('count', 'displayed')).trim());

  it('"Snooze 15 min" closes the toast; it comes back with its sound 15 minutes later, then reminds', async () => {
    const response = await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Approve the deploy?',
      message: 'Run `npm publish` in notify',
      agent: 'claude',
      type: 'permission_required',
    });
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as { id: string };
    await waitFor(async () => (await displayed()) === 1, 'the toast');
    await players.waitForCalls(1);

    dmenu.choose('Snooze 15 min');
    await desktop.dunst.ctl('context');
    await waitForLog(desktop.broker.home, `notification ${id} snoozed from its toast`);
    assert.match(dmenu.menu(), /Snooze 15 min/);
    await waitFor(async () => (await displayed()) === 0, 'the toast closing');
    const stored = (await (await desktop.broker.request('GET', `/v1/notifications/${id}`)).json()) as {
      status: string;
      snoozedUntil?: string;
    };
    assert.equal(stored.status, 'active');
    assert.ok(stored.snoozedUntil, 'snoozedUntil is shown');

    await clock.advance(desktop.broker, 14 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await displayed(), 0, 'still snoozed after 14 minutes');
    assert.equal(players.calls().length, 1, 'and silent');

    await clock.advance(desktop.broker, MINUTE);
    await waitFor(async () => (await displayed()) === 1, 'the toast back after 15 minutes');
    await players.waitForCalls(2);

    // The person closes it without answering: five minutes later it reminds, toast and sound.
    await desktop.dunst.ctl('close-all');
    await waitFor(async () => (await displayed()) === 0, 'the toast closed by the person');
    await clock.advance(desktop.broker, 5 * MINUTE);
    await waitForLog(desktop.broker.home, `notification ${id} alerts again: reminder 1 of 3`);
    await waitFor(async () => (await displayed()) === 1, 'the reminder toast');
    await players.waitForCalls(3);
    const history = await desktop.dunst.ctl('history');
    assert.match(history, /Approve the deploy\?/);

    // Resolved: the toast goes and no reminder follows.
    await desktop.broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    await waitFor(async () => (await displayed()) === 0, 'the toast gone after resolve');
    await clock.advance(desktop.broker, 5 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await displayed(), 0);
    assert.equal(players.calls().length, 3);
  });
});
