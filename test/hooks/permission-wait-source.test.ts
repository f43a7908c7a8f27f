import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { NotificationDto } from '../../src/client/api-types.js';
import { useBroker } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';
import { fixtureFile, NOTIFYCTL, runHook } from './support.js';

/**
 * The permission wait through `notifyctl hook` (the compiled sources), beside permission-answers,
 * which runs the bundle the installed hooks run: a mistake in the sources shows here even before a
 * bundle is made of them.
 */
const broker = useBroker();
const CODEX = fixtureFile('codex-0.169.0')['PermissionRequest']!;
const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

const hook = (tool: 'claude' | 'codex', payload: Record<string, unknown>) =>
  runHook(['hook', tool, '--answer-wait=30'], JSON.stringify(payload), broker.home.env, NOTIFYCTL);

async function latest(key: string): Promise<NotificationDto | undefined> {
  const response = await broker.request('GET', `/v1/notifications?key=${encodeURIComponent(key)}&limit=1`);
  return ((await response.json()) as NotificationDto[])[0];
}

/** The request once it has `revision` and its choices. */
const asked = (key: string, revision = 1) =>
  waitFor(async () => {
    const found = await latest(key);
    return found?.status === 'active' && found.actions && found.revision === revision ? found : undefined;
  }, `revision ${revision} of ${key}`);

function hookLog(): string[] {
  const [file] = readdirSync(broker.home.logDir).filter((name) => /^notify-\d{8}\.log$/.test(name));
  return readFileSync(join(broker.home.logDir, file!), 'utf8').split('\n');
}

describe('permission wait, from the sources', () => {
  it('a request dismissed while the hook waits ends the wait at once, saying so', async () => {
    const running = hook('codex', { ...CODEX, session_id: 'src-dismiss' });
    const request = await asked('codex:src-dismiss');
    assert.equal((await broker.request('POST', `/v1/notifications/${request.id}/dismiss`)).status, 200);
    const finished = await running;
    assert.equal(finished.stdout, '');
    assert.ok(
      hookLog().some((line) =>
        line.endsWith("hook codex PermissionRequest: dismissed without an answer; the tool's dialog decides"),
      ),
    );
  });

  it("a headless run's request is resolved once its NOTIFY_HEADLESS_ANSWER_WAIT passes, not left for a terminal", async () => {
    const env = {
      ...broker.home.env,
      CLAUDE_CODE_SESSION_ATTENDED: '0',
      CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
      NOTIFY_HEADLESS_ANSWER_WAIT: '1',
    };
    const payload = JSON.stringify({ ...CLAUDE, session_id: 'src-headless' });
    const finished = await runHook(['hook', 'claude', '--answer-wait=590'], payload, env, NOTIFYCTL);
    assert.equal(finished.stdout, '');
    const left = await latest('claude-code:src-headless');
    assert.equal(left?.status, 'resolved', 'nobody is left asked to answer in a terminal nobody watches');
  });

  it('the same command asked again from another folder: only the hook whose revision the person saw gets the answer', async () => {
    const payload = { ...CLAUDE, session_id: 'src-twice' };
    const first = hook('claude', payload);
    await asked('claude-code:src-twice');
    // Same title, message and choices; only the revision tells the two askings apart.
    const second = hook('claude', { ...payload, cwd: '/home/ada/web' });
    const shown = await asked('claude-code:src-twice', 2);
    const response = await broker.request('POST', `/v1/notifications/${shown.id}/answer`, {
      action: 'allow',
    });
    assert.equal(response.status, 200);
    assert.equal((await first).stdout, '', 'the person answered the second asking');
    assert.equal(JSON.parse((await second).stdout).hookSpecificOutput.decision.behavior, 'allow');
  });
});
