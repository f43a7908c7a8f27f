import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTempHome, freePort, readConfigFile, writeConfig } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { runNotifyd } from '../support/notifyd-run.js';

const BOUNDED = { timeout: 20_000 };

/** A second program holding a port, like another broker on 47821. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('notifyd --port and NOTIFY_PORT: flag, then environment, then config.json, then 47821', () => {
  let held: { server: Server; port: number };
  before(async () => (held = await holdPort()));
  after(() => held.server.close());

  it(
    '--port moves the broker off a taken config.json port, and says how clients find it',
    BOUNDED,
    async () => {
      const home = createTempHome();
      writeConfig(home, { port: held.port });
      const port = await freePort();
      const notifyd = await runNotifyd(['--port', String(port)], home.env);
      try {
        const lines = notifyd.stdout().split('\n');
        assert.equal(lines[0], `Notify listening on http://127.0.0.1:${port}`, notifyd.stderr());
        assert.equal(
          lines[1],
          `  port:     ${port} (from --port; config.json says ${held.port}, so give clients --port ${port} or NOTIFY_PORT=${port})`,
        );
        assert.equal(readConfigFile(home)['port'], held.port, 'config.json keeps its own port');
        const sent = await runNotify(['Build finished', '--port', String(port)], { env: home.env });
        assert.equal(sent.code, 0, sent.stderr);
      } finally {
        assert.equal(await notifyd.stop(), 0);
        home.cleanup();
      }
    },
  );

  it(
    'NOTIFY_PORT on a first start (no config.json yet) is where notifyd and notify meet',
    BOUNDED,
    async () => {
      const home = createTempHome();
      const port = await freePort();
      const env = { ...home.env, NOTIFY_PORT: String(port) };
      const notifyd = await runNotifyd([], env);
      try {
        assert.match(notifyd.stdout(), new RegExp(`^Notify listening on http://127\\.0\\.0\\.1:${port}\\n`));
        assert.match(
          notifyd.stdout(),
          new RegExp(`\\n {2}port: {5}${port} \\(from NOTIFY_PORT; config\\.json says 47821`),
        );
        const listed = await runNotify(['list'], { env });
        assert.deepEqual([listed.code, listed.stdout, listed.stderr], [0, '(no notifications)\n', '']);
      } finally {
        assert.equal(await notifyd.stop(), 0);
        home.cleanup();
      }
    },
  );

  it('--port wins over NOTIFY_PORT; no port line when config.json names the same port', BOUNDED, async () => {
    const home = createTempHome();
    const port = await freePort();
    writeConfig(home, { port });
    const notifyd = await runNotifyd(['--port', String(port)], {
      ...home.env,
      NOTIFY_PORT: String(held.port),
    });
    try {
      assert.match(
        notifyd.stdout(),
        new RegExp(`^Notify listening on http://127\\.0\\.0\\.1:${port}\\n {2}config: `),
      );
    } finally {
      assert.equal(await notifyd.stop(), 0);
      home.cleanup();
    }
  });

  it('a taken port names all three ways to choose another', BOUNDED, async () => {
    const home = createTempHome();
    writeConfig(home, { port: held.port });
    const notifyd = await runNotifyd([], home.env);
    try {
      assert.equal(await notifyd.exited, 1);
      assert.equal(
        notifyd.stderr(),
        `Notify cannot start: port ${held.port} on 127.0.0.1 is already in use; stop the other program, or choose another port: notifyd --port <n>, NOTIFY_PORT, or "port" in ${home.configFile}\n`,
      );
    } finally {
      home.cleanup();
    }
  });

  const BAD: [args: string[], env: NodeJS.ProcessEnv, message: string][] = [
    [['--port', 'abc'], {}, "notifyd: --port must be an integer from 1 to 65535 (got 'abc').\n"],
    [['--port=70000'], {}, "notifyd: --port must be an integer from 1 to 65535 (got '70000').\n"],
    [[], { NOTIFY_PORT: '0' }, "notifyd: NOTIFY_PORT must be an integer from 1 to 65535 (got '0').\n"],
    [['--port'], {}, '--port requires a value.\n'],
    [
      ['--prot', '5'],
      {},
      "notifyd: unknown argument '--prot'. Run 'notifyd --help'.\nHint: did you mean '--port'?\n",
    ],
  ];
  for (const [args, env, message] of BAD) {
    it(
      `refuses ${[...args, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(' ')} before touching anything`,
      BOUNDED,
      async () => {
        const home = createTempHome();
        const notifyd = await runNotifyd(args, { ...home.env, ...env });
        try {
          assert.equal(await notifyd.exited, 1);
          assert.deepEqual([notifyd.stdout(), notifyd.stderr()], ['', message]);
        } finally {
          home.cleanup();
        }
      },
    );
  }
});
