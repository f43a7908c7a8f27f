import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  createTempHome,
  freePort,
  readConfigFile,
  replaceConfigFile,
  startBroker,
  useBroker,
  writeConfig,
} from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

describe('notify hints after a refused token', () => {
  const broker = useBroker();

  /** Where the token came from → the hint line after the spec's `Error 401 ...` line. */
  const SOURCES: [
    source: string,
    setup: (configFile: string) => { args: string[]; env: NodeJS.ProcessEnv },
    hint: (configFile: string) => string,
  ][] = [
    [
      '--token',
      () => ({ args: ['--token', 'wrong'], env: {} }),
      (file) =>
        `Hint: the token given with --token is not the broker's. 'notify token' prints the one in ${file}; leave --token out to use it.`,
    ],
    [
      'NOTIFY_TOKEN',
      () => ({ args: [], env: { NOTIFY_TOKEN: 'wrong' } }),
      (file) =>
        `Hint: the token in NOTIFY_TOKEN is not the broker's. 'notify token' prints the one in ${file}; unset NOTIFY_TOKEN to use it.`,
    ],
    [
      'config.json',
      () => ({ args: [], env: {} }),
      (file) =>
        `Hint: the token in ${file} is not the one of the broker on port ${broker.port}, so that broker reads another config file (started with another HOME or XDG_CONFIG_HOME?). Pass its token with --token or NOTIFY_TOKEN ('notify token' run with that HOME prints it), or restart notifyd as yourself.`,
    ],
  ];

  for (const [source, setup, hint] of SOURCES) {
    it(`notifyctl count: the same hint as notify for a refused token from ${source} (one hint builder)`, async () => {
      const home = createTempHome();
      try {
        writeConfig(home, { port: broker.port, authToken: 'the-token-of-another-broker' });
        const { args, env } = setup(home.configFile);
        const result = await runNotifyctl(['count', ...args], { env: { ...home.env, ...env } });
        assert.equal(result.code, 2);
        assert.equal(result.stderr, `Error 401 Unauthorized: unauthorized\n${hint(home.configFile)}\n`);
      } finally {
        home.cleanup();
      }
    });

    for (const command of [['send', 'T'], ['list'], ['get', 'some-id']]) {
      it(`${command[0]}: names ${source} as the refused token's source and points to 'notify token'`, async () => {
        const home = createTempHome();
        try {
          writeConfig(home, { port: broker.port, authToken: 'the-token-of-another-broker' });
          const { args, env } = setup(home.configFile);
          const result = await runNotify([...command, ...args], { env: { ...home.env, ...env } });
          assert.equal(result.code, command[0] === 'send' ? 2 : 1);
          assert.equal(result.stderr, `Error 401 Unauthorized: unauthorized\n${hint(home.configFile)}\n`);
        } finally {
          home.cleanup();
        }
      });
    }
  }

  it('without any token: the warning, the spec line, then where the token is', async () => {
    const home = createTempHome();
    try {
      writeConfig(home, { port: broker.port });
      const result = await runNotify(['list'], { env: home.env });
      assert.equal(result.code, 1);
      assert.deepEqual(result.stderr.split('\n').slice(1), [
        'Error 401 Unauthorized: unauthorized',
        `Hint: no token was sent. 'notify token' prints the broker's token from ${home.configFile}; pass it with --token or NOTIFY_TOKEN if the file is elsewhere.`,
        '',
      ]);
    } finally {
      home.cleanup();
    }
  });

  it("without a token because config.json is broken: says to fix that file, not to run 'notify token'", async () => {
    const home = createTempHome();
    try {
      writeConfig(home, {});
      writeFileSync(home.configFile, '{"authToken": ');
      const result = await runNotify(['list'], { env: { ...home.env, NOTIFY_PORT: String(broker.port) } });
      assert.equal(result.code, 1);
      assert.deepEqual(result.stderr.split('\n').slice(2), [
        'Error 401 Unauthorized: unauthorized',
        `Hint: no token was sent because ${home.configFile} cannot be used (the warning above says why); fix that file, then try again, or pass the broker's token with --token or NOTIFY_TOKEN.`,
        '',
      ]);
    } finally {
      home.cleanup();
    }
  });

  it('health with NOTIFY_TOKEN refused: prints {"status":"ok"} and says on stderr which token was refused', async () => {
    const result = await runNotify(['health'], { env: { ...broker.home.env, NOTIFY_TOKEN: 'stale' } });
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '{\n  "status": "ok"\n}\n');
    assert.match(
      result.stderr,
      /^Warning: the broker refused the token from NOTIFY_TOKEN \(401 Unauthorized\); showing the open \/health instead\.\nHint: the token in NOTIFY_TOKEN/,
    );
  });
});

describe('notify: a first word one edit away from a command', () => {
  const broker = useBroker();

  const CASES: [args: string[], command: string | undefined][] = [
    [['lsit'], 'list'],
    [['hepl'], 'help'],
    [['tokne'], 'token'],
    [['List'], 'list'],
    [['sned'], 'send'],
    [['Build finished'], undefined],
    [['lists'], 'list'],
    [['deploy'], undefined],
  ];

  for (const [args, command] of CASES) {
    it(`"notify ${args.join(' ')}" is sent as a notification${command ? ` and hints at 'notify ${command}'` : ' with no hint'}`, async () => {
      const result = await runNotify(args, { env: broker.home.env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal((JSON.parse(result.stdout) as { title: string }).title, args[0]);
      assert.equal(
        result.stderr,
        command
          ? `Hint: sent as a notification titled "${args[0]}"; did you mean 'notify ${command}'?\n`
          : '',
      );
    });
  }

  it('hints after the error when the mistyped command fails as a send', async () => {
    const result = await runNotify(['lsit', '--unresolved'], { env: broker.home.env });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr:
        "unknown option '--unresolved' for send. Run 'notify help send'.\n" +
        "Hint: 'lsit' is not a command, so this was a send; did you mean 'notify list'?\n",
    });
  });
});

describe('notify token when config.json cannot give one', () => {
  it('never quotes a malformed config.json, which may hold the token', async () => {
    const home = createTempHome();
    try {
      writeConfig(home, {});
      writeFileSync(home.configFile, '{"port": 47821, "authToken": "SECRET-TOKEN-VALUE",,}');
      const result = await runNotify(['token'], { env: home.env });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(
        result.stderr,
        `Cannot read the token: ${home.configFile} is not valid JSON (syntax error at line 1, column 51). Fix the file (notifyd refuses to start with it too), then run 'notify token' again.\n`,
      );
      assert.ok(!result.stderr.includes('SECRET'));
    } finally {
      home.cleanup();
    }
  });

  it('says the token was removed while the broker runs, and that a restart writes a new one', async () => {
    const broker = await startBroker();
    try {
      const config = readConfigFile(broker.home);
      delete config['authToken'];
      replaceConfigFile(broker.home, config);
      const result = await runNotify(['token'], { env: broker.home.env });
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr:
          `No token in ${broker.home.configFile}: its authToken was removed while Notify was running on port ${broker.port}. ` +
          `The running broker still uses the token it loaded at start, which no file holds now. ` +
          `Restart notifyd (it writes a new token into the file), then run 'notify token' again.\n`,
      });
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('says to start Notify when config.json has no authToken and no broker runs', async () => {
    const home = createTempHome();
    try {
      writeConfig(home, { port: await freePort() });
      const result = await runNotify(['token'], { env: home.env });
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `No token in ${home.configFile}: the file exists but has no authToken. Start Notify (notifyd): it writes a new token into the file. Then run 'notify token' again.\n`,
      });
    } finally {
      home.cleanup();
    }
  });
});

describe('a mistyped option: the spec message, then the option that was probably meant', () => {
  const CASES: [
    program: 'notify' | 'notifyctl',
    args: string[],
    message: string,
    near: string | undefined,
  ][] = [
    [
      'notify',
      ['send', 'T', '--prority', 'high'],
      "unknown option '--prority' for send. Run 'notify help send'.",
      '--priority',
    ],
    [
      'notify',
      ['T', '--mesage=hello'],
      "unknown option '--mesage' for send. Run 'notify help send'.",
      '--message',
    ],
    ['notify', ['list', '--unresolvd'], "unknown option '--unresolvd' for list.", '--unresolved'],
    ['notify', ['list', '--verbose'], "unknown option '--verbose' for list.", undefined],
    [
      'notifyctl',
      ['count', '--prot', '1'],
      "unknown option '--prot' for count. Run 'notifyctl --help'.",
      '--port',
    ],
    [
      'notifyctl',
      ['providers', 'list', '--jsno'],
      "unknown option '--jsno' for providers list. Run 'notifyctl providers --help'.",
      '--json',
    ],
    [
      'notifyctl',
      ['doctor', '--tokn', 'x'],
      "unknown option '--tokn' for doctor. Run 'notifyctl --help'.",
      '--token',
    ],
  ];

  for (const [program, args, message, near] of CASES) {
    it(`${program} ${args.join(' ')}: ${near ? `hints at ${near}` : 'no hint when nothing is close'}, exit 1`, async () => {
      const home = createTempHome();
      try {
        const run = program === 'notify' ? runNotify : runNotifyctl;
        const result = await run(args, { env: home.env });
        assert.deepEqual(result, {
          code: 1,
          stdout: '',
          stderr: `${message}\n${near ? `Hint: did you mean '${near}'?\n` : ''}`,
        });
      } finally {
        home.cleanup();
      }
    });
  }
});
