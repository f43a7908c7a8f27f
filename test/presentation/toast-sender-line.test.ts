import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useDesktop } from '../support/desktop-broker.js';
import { runNotify } from '../support/notify-cli.js';

/**
 * The toast's last line names who sent it and for which project. A `notify send` from a terminal names
 * no project (agent `cli`), but its working folder says which one it is.
 */
describe("the toast's last line for a notify send from a terminal", () => {
  const desktop = useDesktop();

  /** The body of the toast `notify send` made from `cwd`. */
  async function toastBodyFrom(cwd: string, ...flags: string[]): Promise<string> {
    const before = desktop.server.calls.length;
    const sent = await runNotify(['send', 'Build done', 'all green', ...flags], {
      env: desktop.broker.home.env,
      cwd,
    });
    assert.equal(sent.code, 0, sent.stderr);
    await desktop.server.until(() => desktop.server.calls.length > before);
    const call = desktop.server.calls[before]!;
    desktop.server.expire(call.id);
    return call.body;
  }

  it('names the repository of the folder it was sent from: cli · shop', async () => {
    const web = join(desktop.broker.home.home, 'code', 'shop', 'web');
    mkdirSync(web, { recursive: true });
    mkdirSync(join(desktop.broker.home.home, 'code', 'shop', '.git'));
    assert.equal(await toastBodyFrom(web), 'all green\ncli · shop');
  });

  it('outside a repository, the folder itself: cli · notes', async () => {
    const notes = join(desktop.broker.home.home, 'notes');
    mkdirSync(notes);
    assert.equal(await toastBodyFrom(notes), 'all green\ncli · notes');
  });

  it('a project given with --project is the one shown', async () => {
    const notes = join(desktop.broker.home.home, 'notes');
    assert.equal(await toastBodyFrom(notes, '--project', 'api'), 'all green\ncli · api');
  });
});
