import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { useDunstDesktop } from '../support/desktop-broker.js';
import { litShare } from '../support/dunst.js';

const run = promisify(execFile);

/** What a person sees, asked from dunst itself. */
describe('toasts in a real notification daemon (dunst under Xvfb)', () => {
  const shots = mkdtempSync(join(tmpdir(), 'notify-shots-'));
  const desktop = useDunstDesktop();
  after(() => rmSync(shots, { recursive: true, force: true }));

  const displayed = async () => Number((await desktop.dunst.ctl('count', 'displayed')).trim());
  async function until(predicate: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error(`dunst never showed: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('shows a toast for each notification sent through the API, drawn on the screen', async () => {
    const approval = await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Claude needs your approval',
      message: 'Run `npm publish` in notify? <yes/no>',
      agent: 'claude',
      project: 'notify',
      type: 'permission_required',
      priority: 'high',
    });
    assert.equal(approval.status, 201);
    const build = await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Build finished',
      message: 'All 312 tests passed',
      agent: 'ci',
      project: 'notify',
      type: 'completed',
    });
    assert.equal(build.status, 201);
    await until(async () => (await displayed()) === 2, 'two toasts');

    const shot = join(shots, 'toast.xwd');
    await desktop.dunst.screenshot(shot);
    // The screen starts black; two toasts paint a good share of it.
    const lit = litShare(readFileSync(shot));
    assert.ok(lit > 0.05, `the screen looks empty (${(lit * 100).toFixed(1)} % lit)`);
    // docs/toast.png comes from here, converted with ImageMagick (not needed by the test itself).
    const keep = process.env['NOTIFY_TOAST_SCREENSHOT'];
    if (keep) await run('convert', [`xwd:${shot}`, keep]);
  });

  it('takes the toast off the screen into dunst history when the notification is resolved', async () => {
    await desktop.dunst.ctl('close-all');
    await until(async () => (await displayed()) === 0, 'an empty screen');
    const shown = 0;
    const created = (await (
      await desktop.broker.request('POST', '/v1/notifications', {
        title: 'Codex is blocked',
        message: 'Waiting for the database password',
        agent: 'codex',
        type: 'blocked',
      })
    ).json()) as { id: string };
    await until(async () => (await displayed()) === shown + 1, 'the blocked toast');
    const resolved = await desktop.broker.request('PATCH', `/v1/notifications/${created.id}`, {
      status: 'resolved',
    });
    assert.equal(resolved.status, 200);
    await until(async () => (await displayed()) === shown, 'the toast closing');
    await until(
      async () => (await desktop.dunst.ctl('history')).includes('Codex is blocked'),
      'the toast in history',
    );
  });
});
