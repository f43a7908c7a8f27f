import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTempHome, freePort, writeConfig } from '../support/broker-process.js';
import { startSilentServer } from '../support/notify-cli.js';
import { useBroker } from '../support/broker-process.js';
import { fixtures, NOTIFYCTL, runHook, type HookRun } from './support.js';

const STOP = JSON.stringify(fixtures('claude')['Stop']);

function assertSilentSuccess(result: HookRun): void {
  assert.deepEqual(
    { code: result.code, stdout: result.stdout, stderr: result.stderr },
    { code: 0, stdout: '', stderr: '' },
  );
}

function logLines(logDir: string): string[] {
  const files = readdirSync(logDir).filter((name) => /^notify-\d{8}\.log$/.test(name));
  return files.flatMap((file) => readFileSync(join(logDir, file), 'utf8').split('\n').filter(Boolean));
}

describe('a hook never hurts the agent', () => {
  const home = createTempHome();
  after(() => home.cleanup());

  it('exits 0 silently and logs the refused connection when no broker listens', async () => {
    const port = await freePort();
    writeConfig(home, { port, authToken: 'not-a-real-token-but-secret' });
    const result = await runHook(['claude'], STOP, home.env);
    assertSilentSuccess(result);
    const lines = logLines(home.logDir);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      new RegExp(
        `\\[WARN\\] hook claude Stop: raise completion -> broker unreachable on port ${port} \\(BrokerUnreachableError\\)$`,
      ),
    );
    assert.ok(!lines[0]!.includes('not-a-real-token-but-secret'));
  });

  it('gives up on a broker that accepts and never answers, well before the tool kills the hook', async () => {
    const silent = await startSilentServer();
    try {
      const result = await runHook(['codex'], JSON.stringify(fixtures('codex')['Stop']), {
        ...home.env,
        NOTIFY_PORT: String(silent.port),
      });
      assertSilentSuccess(result);
      // The installed hooks allow 5 s; the adapter's own limit is 0.5 s plus Node's start.
      assert.ok(result.elapsedMs < 5000, `${result.elapsedMs} ms`);
      assert.match(logLines(home.logDir).at(-1)!, /\[WARN\] hook codex Stop: .*\(BrokerTimeoutError\)$/);
    } finally {
      await silent.close();
    }
  });

  const cases: { name: string; args: string[]; stdin: string | undefined; logged: RegExp }[] = [
    {
      name: 'a payload that is not JSON',
      args: ['claude'],
      stdin: '{"hook_event_name": "Stop",',
      logged: /\[WARN\] hook claude: payload is not a JSON object; ignored$/,
    },
    {
      name: 'a JSON array',
      args: ['gemini'],
      stdin: '[1, 2]',
      logged: /\[WARN\] hook gemini: payload is not a JSON object; ignored$/,
    },
    {
      name: 'an empty stdin',
      args: ['claude'],
      stdin: '',
      logged: /\[WARN\] hook claude: payload is not a JSON object; ignored$/,
    },
    {
      name: 'an unknown event',
      args: ['claude'],
      stdin: '{"hook_event_name":"TeaBreak","session_id":"s"}',
      logged: /\[INFO\] hook claude TeaBreak: nothing to do$/,
    },
    {
      name: 'a payload with no session',
      args: ['claude'],
      stdin: '{"hook_event_name":"Stop"}',
      logged: /\[WARN\] hook claude Stop: payload names no session; ignored$/,
    },
    {
      name: 'a Codex notify argument that is not JSON',
      args: ['codex', 'agent-turn-complete'],
      stdin: undefined,
      logged: /\[WARN\] hook codex: payload is not a JSON object; ignored$/,
    },
    {
      name: 'an unknown tool',
      args: ['cursor'],
      stdin: STOP,
      logged: /\[WARN\] hook: unknown tool; expected claude, codex or gemini$/,
    },
    {
      name: 'no tool at all',
      args: [],
      stdin: STOP,
      logged: /\[WARN\] hook: unknown tool; expected claude, codex or gemini$/,
    },
  ];
  for (const { name, args, stdin, logged } of cases) {
    it(`exits 0 silently and logs one line for ${name}`, async () => {
      const before = logLines(home.logDir).length;
      assertSilentSuccess(await runHook(args, stdin, home.env));
      const lines = logLines(home.logDir);
      assert.equal(lines.length, before + 1);
      assert.match(lines.at(-1)!, logged);
    });
  }

  it('exits 0 silently through notifyctl hook for an unknown tool', async () => {
    assertSilentSuccess(await runHook(['hook', 'cursor'], STOP, home.env, NOTIFYCTL));
  });

  it('exits 0 silently when the log folder cannot be written', async () => {
    const blocker = join(home.home, 'not-a-folder');
    writeFileSync(blocker, 'a file where the state folder should be');
    const env = { ...home.env, XDG_STATE_HOME: blocker };
    assertSilentSuccess(await runHook(['claude'], STOP, env));
  });
});

describe('a hook with a bad token', () => {
  const broker = useBroker();

  it('exits 0 silently, logs the 401 and creates nothing', async () => {
    const env = { ...broker.home.env, NOTIFY_TOKEN: 'wrong-token' };
    assertSilentSuccess(await runHook(['claude'], STOP, env));
    assert.match(
      logLines(broker.home.logDir)
        .filter((line) => line.includes('hook claude'))
        .at(-1)!,
      /\[WARN\] hook claude Stop: raise completion -> 401 Unauthorized$/,
    );
    const response = await broker.request('GET', '/v1/notifications');
    assert.deepEqual(await response.json(), []);
  });
});
