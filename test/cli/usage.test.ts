import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTempHome, freePort, type TempHome } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('notify usage, help and version', () => {
  let home: TempHome;
  before(() => {
    home = createTempHome();
  });
  after(() => home.cleanup());
  const run = (...args: string[]) => runNotify(args, { env: home.env });

  for (const args of [[], ['--help'], ['-h'], ['help']]) {
    it(`prints the general usage on stdout and exits 0 for [${args.join(' ')}]`, async () => {
      const result = await run(...args);
      assert.equal(result.code, 0);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, /^notify: /);
      assert.ok(
        result.stdout.split('\n').every((line) => line.length <= 80),
        'fits 80 columns',
      );
      assert.match(result.stdout, /Usage:\n {2}notify <command> \[options\]/);
      for (const command of [
        'send',
        'list',
        'get',
        'resolve',
        'dismiss',
        'health',
        'token',
        'install-skill',
      ]) {
        assert.match(result.stdout, new RegExp(`\\n  ${command}\\b`), command);
      }
    });
  }

  it('prints "notify <version>" for --version and exits 0', async () => {
    const result = await run('--version');
    assert.deepEqual(result, { code: 0, stdout: `notify ${VERSION}\n`, stderr: '' });
  });

  for (const topic of ['send', 'list', 'get', 'resolve', 'dismiss', 'relay', 'install-skill']) {
    it(`prints the ${topic} topic for "help ${topic}" and for "${topic} --help"`, async () => {
      const viaHelp = await run('help', topic);
      assert.equal(viaHelp.code, 0);
      assert.match(viaHelp.stdout, new RegExp(`^notify ${topic}: `));
      assert.match(viaHelp.stdout, /Example/);
      const lines = viaHelp.stdout.split('\n');
      assert.ok(lines.length <= 40, 'fits one screen');
      assert.ok(
        lines.every((line) => line.length <= 80),
        'fits 80 columns',
      );
      const viaFlag = await run(topic, '--help');
      assert.deepEqual(viaFlag, viaHelp);
    });
  }

  it('prints the general usage for an unknown help topic', async () => {
    const [unknown, general] = await Promise.all([run('help', 'bogus'), run('help')]);
    assert.equal(unknown.code, 0);
    assert.equal(unknown.stdout, general.stdout);
  });

  it('shows the install-skill topic for "install skill --help"', async () => {
    const [install, topic] = await Promise.all([
      run('install', 'skill', '--help'),
      run('help', 'install-skill'),
    ]);
    assert.equal(install.stdout, topic.stdout);
  });

  it('takes "relay" as a command, not a send: an unknown subcommand is refused with exit 1', async () => {
    const port = await freePort();
    const result = await run('relay', 'frobnicate', '--port', String(port));
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      "unknown relay subcommand 'frobnicate'; use pair or status. Run 'notify help relay'.\n",
    );
  });
});
