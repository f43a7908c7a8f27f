import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import type { NotificationDto } from '../../src/client/api-types.js';
import { useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { waitFor } from '../support/wait-for.js';
import { fixtureFile, HOOK } from '../hooks/support.js';

const TERMINAL_ONLY = 'answer in the terminal: this text contains characters that change how it is displayed';
/** Displays as `ls | curl .sh` in a browser; runs `ls ` then U+202E then ` hs.| lruc`. */
const REVERSED = 'ls \u202e hs.| lruc';
const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

describe('a request whose text displays differently from what runs is answered in the terminal only', () => {
  const broker = useBroker();
  const get = async (id: string) =>
    (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as NotificationDto;

  const CASES: [name: string, body: Record<string, unknown>][] = [
    ['a right-to-left override in the message', { title: 'Run it?', message: REVERSED }],
    ['a zero-width joiner in the message', { title: 'Run it?', message: 'rm -rf /tmp/build\u200d /' }],
    ['an isolate in the title', { title: 'Run \u2067it?', message: 'ls' }],
    [
      'a zero-width space in an action label',
      { title: 'Run it?', message: 'ls', actions: [{ id: 'allow', label: 'Al\u200blow' }] },
    ],
  ];
  for (const [name, body] of CASES) {
    for (const surface of ['cli', 'web', 'relay'] as const) {
      it(`refuses a ${surface} answer with 409 for ${name}, and the request stays unanswered`, async () => {
        const created = await broker.request('POST', '/v1/notifications', { actions: ACTIONS, ...body });
        assert.equal(created.status, 201);
        const { id } = (await created.json()) as NotificationDto;
        const response = await broker.request('POST', `/v1/notifications/${id}/answer`, {
          action: 'allow',
          surface,
        });
        assert.equal(response.status, 409);
        assert.deepEqual(await response.json(), { error: TERMINAL_ONLY });
        const after = await get(id);
        assert.equal(after.status, 'active');
        assert.equal(after.answer, undefined);
      });
    }
  }

  it('notifyctl pending shows the marker and the sentence instead of the actions; notifyctl answer is refused', async () => {
    const created = await broker.request('POST', '/v1/notifications', {
      title: 'Run \u202eit?',
      message: 'ls',
      agent: 'claude',
      actions: ACTIONS,
    });
    const { id } = (await created.json()) as NotificationDto;
    const pending = await runNotifyctl(['pending'], { env: broker.home.env });
    assert.equal(pending.code, 0);
    assert.match(
      pending.stdout,
      new RegExp(`^${id} revision 1 claude: Run ⟨U\\+202E⟩it\\? \\[${TERMINAL_ONLY}\\]$`, 'm'),
    );
    const answered = await runNotifyctl(['answer', id, 'allow', '--revision', '1'], {
      env: broker.home.env,
    });
    assert.notEqual(answered.code, 0);
    assert.match(answered.stderr, new RegExp(TERMINAL_ONLY));
    assert.doesNotMatch(pending.stdout, /Answer with/, 'no hint to answer what only the terminal answers');
    assert.equal((await get(id)).status, 'active');
  });

  it('still answers a request whose text is plain', async () => {
    const created = await broker.request('POST', '/v1/notifications', {
      title: 'Run it?',
      message: 'ls | curl .sh',
      actions: ACTIONS,
    });
    const { id } = (await created.json()) as NotificationDto;
    const response = await broker.request('POST', `/v1/notifications/${id}/answer`, { action: 'allow' });
    assert.equal(response.status, 200);
  });

  it("leaves Claude Code's hook waiting after a refused answer; the terminal's answer closes the request", async () => {
    const payload = {
      ...fixtureFile('claude-code-2.1.332')['PermissionRequest']!,
      session_id: 'vc-bidi',
      tool_input: { command: REVERSED, description: 'List', run_in_background: false },
    };
    const hook = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=30'], {
      env: broker.home.env,
      stdio: 'pipe',
    });
    let stdout = '';
    hook.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    hook.stdin.end(JSON.stringify(payload));
    const finished = new Promise<number | null>((resolve) => hook.once('close', (code) => resolve(code)));
    const request = await waitFor(async () => {
      const response = await broker.request('GET', '/v1/notifications?key=claude-code%3Avc-bidi&limit=1');
      const [found] = (await response.json()) as NotificationDto[];
      return found?.status === 'active' && found.actions ? found : undefined;
    }, 'the permission request');
    assert.ok(request.message.includes(REVERSED), request.message);

    const refused = await broker.request('POST', `/v1/notifications/${request.id}/answer`, {
      action: 'allow',
      surface: 'web',
    });
    assert.equal(refused.status, 409);
    assert.equal(hook.exitCode, null, 'the hook still waits for the answer');
    assert.equal((await get(request.id)).status, 'active');

    // The person answers in Claude Code's own dialog, which stops the hook.
    hook.kill('SIGTERM');
    assert.equal(await finished, 0);
    assert.equal(stdout, '', 'the hook decides nothing: the terminal dialog does');
    const closed = await get(request.id);
    assert.equal(closed.status, 'resolved');
    assert.equal(closed.answer, undefined);
  });
});
