import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { useDunstDesktop } from '../support/desktop-broker.js';
import { waitFor } from '../support/wait-for.js';
import { fixtureFile, HOOK } from '../hooks/support.js';

const REQUEST = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

describe('a Claude Code permission answered from a real dunst toast (Xvfb)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-dmenu-'));
  const choice = join(dir, 'choice');
  // Stands in for dmenu: picks the context menu entry named in `choice`; a whole action id, so
  // `answer.allow` does not pick `answer.allow_always`.
  const dmenu = join(dir, 'dmenu');
  writeFileSync(dmenu, `#!/bin/sh\ngrep -E -m1 -- "$(cat "${choice}")([^a-z_]|$)"\n`);
  chmodSync(dmenu, 0o755);
  const desktop = useDunstDesktop({ markup: 'full', dmenu });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The installed permission hook, waiting; resolves with its stdout once it exits. */
  function waitingHook(session: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=30'], {
      env: desktop.broker.home.env,
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(JSON.stringify({ ...REQUEST, session_id: session }));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  for (const [action, decision] of [
    ['allow', { behavior: 'allow' }],
    ['deny', { behavior: 'deny', message: 'Denied from the desktop (Notify toast)' }],
    [
      'allow_always',
      {
        behavior: 'allow',
        // What the terminal's own "always allow" grants: the folder, never the switch to accept-edits mode.
        updatedPermissions: (REQUEST['permission_suggestions'] as { type: string }[]).filter(
          (suggestion) => suggestion.type !== 'setMode',
        ),
      },
    ],
  ] as const) {
    it(`${action}: the toast's button answers and the hook prints the decision`, async () => {
      await desktop.dunst.ctl('close-all');
      const hook = waitingHook(`dunst-${action}`);
      await waitFor(async () => (await desktop.dunst.ctl('count', 'displayed')).trim() === '1', 'the toast');
      writeFileSync(choice, `answer\\.${action}`);
      await desktop.dunst.ctl('context');
      const finished = await hook;
      assert.deepEqual(
        { code: finished.code, stderr: finished.stderr, stdout: JSON.parse(finished.stdout) as unknown },
        {
          code: 0,
          stderr: '',
          stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } },
        },
      );
      await waitFor(
        async () => (await desktop.dunst.ctl('count', 'displayed')).trim() === '0',
        'the toast to close',
      );
    });
  }
});
